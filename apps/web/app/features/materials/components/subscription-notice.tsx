import { MATERIAL_MESSAGES } from '@chapterwise/shared';
import { Link } from 'react-router';

/** Shown when the user has no credits and no subscription (spec §2, §5). */
export function SubscriptionNotice() {
  return (
    <p className="alert alert-info subscription-notice" role="status">
      <Link to="/subscription">{MATERIAL_MESSAGES.needSubscription}</Link>
    </p>
  );
}
