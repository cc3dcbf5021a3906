import { useTranslation } from 'react-i18next';
import { StatusPage } from './StatusPage';

export default function UnauthorizedPage() {
  const { t } = useTranslation();
  return (
    <StatusPage
      code="401"
      title={t('status.unauthorizedTitle')}
      text={t('status.unauthorizedText')}
    />
  );
}
