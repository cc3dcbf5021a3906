import { WelcomeDashboard } from '@/features/welcome/components/WelcomeDashboard';

/** /customer-welcome. */
export default function CustomerWelcomePage() {
  return <WelcomeDashboard area="customer" />;
}
