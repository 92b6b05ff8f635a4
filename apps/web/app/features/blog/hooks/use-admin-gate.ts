import { useEffect } from 'react';
import { useNavigate, useNavigation } from 'react-router';
import { useSession } from '../../../lib/session';

/**
 * Who may see an admin page, once the signed-in user is known: admins get the page, anyone
 * else the 404 page (the API answers them 403 anyway); a session that has ended goes to the
 * login page, which brings the admin back to `back`.
 */
export function useAdminGate(back: string): 'loading' | 'denied' | 'admin' {
  const { status, user } = useSession();
  const navigate = useNavigate();
  const navigation = useNavigation();
  useEffect(() => {
    if (status === 'guest' && navigation.state === 'idle') {
      void navigate(`/login?redirectTo=${encodeURIComponent(back)}`, { replace: true });
    }
  }, [status, navigation.state, navigate, back]);
  if (status !== 'authenticated' || !user) return 'loading';
  return user.isAdmin ? 'admin' : 'denied';
}
