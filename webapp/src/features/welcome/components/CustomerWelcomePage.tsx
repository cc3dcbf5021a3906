import { WelcomeDashboard } from './WelcomeDashboard';

/** /customer-welcome. */
export default function CustomerWelcomePage() {
  return <WelcomeDashboard area="customer" />;
}
