import { Stack } from '@mantine/core';
import { Permission } from '@/components/Permission';
import { WaitingOnCustomersCard } from '@/shared/clearance-exceptions/components/WaitingOnCustomersCard';
import { WelcomeDashboard } from '@/features/welcome/components/WelcomeDashboard';
import { NeedsActionCard } from '@/features/welcome/components/NeedsActionCard';
import { CustomsHoldsPanel } from '@/features/welcome/components/CustomsHoldsPanel';
import { usePermission } from '@/lib/permissions';

/**
 * /admin-welcome: what needs staff's action first (exceptions to review and overdue,
 * declarations to review, held, returned by customs), then the counts, what customs holds
 * (silent after the threshold staff choose), and the exceptions waiting on customers.
 */
export default function AdminWelcomePage() {
  const exceptions = usePermission('clearance:management');
  return (
    <Stack gap="md">
      <WelcomeDashboard
        area="staff"
        lead={<NeedsActionCard area="staff" exceptions={exceptions} />}
      />
      <Permission code="declarations:management">
        <CustomsHoldsPanel />
      </Permission>
      <Permission code="clearance:management">
        <WaitingOnCustomersCard />
      </Permission>
    </Stack>
  );
}
