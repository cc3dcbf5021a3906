import { Stack } from '@mantine/core';
import { Permission } from '@/components/Permission';
import { WaitingOnCustomersCard } from '@/shared/clearance-exceptions/components/WaitingOnCustomersCard';
import { WelcomeDashboard } from '@/features/welcome/components/WelcomeDashboard';
import { CustomsHoldsCard } from '@/shared/customs/components/CustomsHoldsCard';

/** /admin-welcome: the declaration counts, what customs holds, and the exceptions waiting
 * on customers. */
export default function AdminWelcomePage() {
  return (
    <Stack gap="md">
      <WelcomeDashboard area="staff" />
      <Permission code="declarations:management">
        <CustomsHoldsCard />
      </Permission>
      <Permission code="clearance:management">
        <WaitingOnCustomersCard />
      </Permission>
    </Stack>
  );
}
