import { data } from 'react-router';
import { NotFound } from '../components/layout/not-found';

export function loader() {
  throw data('Not Found', { status: 404 });
}

export default function NotFoundRoute() {
  return <NotFound />;
}
