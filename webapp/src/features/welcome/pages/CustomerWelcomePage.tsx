import { WelcomeDashboard } from '@/features/welcome/components/WelcomeDashboard';
import { NeedsActionCard } from '@/features/welcome/components/NeedsActionCard';

/** /customer-welcome: what waits on the customer first, then their declarations' counts. */
export default function CustomerWelcomePage() {
  return <WelcomeDashboard area="customer" lead={<NeedsActionCard area="customer" />} />;
}
