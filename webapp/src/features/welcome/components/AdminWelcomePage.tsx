import { WelcomeDashboard } from './WelcomeDashboard';

/** /admin-welcome. */
export default function AdminWelcomePage() {
  return <WelcomeDashboard area="staff" />;
}
