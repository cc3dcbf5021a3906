// /customers-center/contacts: the signed-in customer's own saved contacts.
import { Loader } from '@mantine/core';
import { PageLayout } from '@/components/PageLayout';
import { useCustomerProfile } from '@/shared/auth/api/customerProfile';
import { useContactT } from '@/shared/contact-book/i18n';
import { ContactBookEditor } from '@/shared/contact-book/components/ContactBookEditor';

export default function ContactBookPage() {
  const { t } = useContactT();
  const profile = useCustomerProfile();
  const customerId = profile.data?.customerId;
  return (
    <PageLayout title={t('title')}>
      {customerId ? <ContactBookEditor customerId={customerId} /> : <Loader size="sm" />}
    </PageLayout>
  );
}
