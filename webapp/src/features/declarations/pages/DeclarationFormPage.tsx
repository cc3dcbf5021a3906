// Staff "declaration submission": `/customers-profile/detail` (new D) and
// `/customers-profile/detail{,-c,-b}/:shipmentType` (new, or `?id=` to edit).
import { useParams, useSearchParams } from 'react-router';
import { useRouteMeta } from '@/shared/routing/useRouteMeta';
import '@/shared/declarations/i18n';
import { FormScreen } from '../components/FormScreen';
import { typeCode } from '@/shared/declarations/model/types';

export default function DeclarationFormPage() {
  const meta = useRouteMeta();
  const { shipmentType = '1' } = useParams();
  const [search] = useSearchParams();
  const type = typeCode(meta.declarationClass ?? 'D', shipmentType);
  return <FormScreen declarationType={type} area={meta.area ?? 'staff'} id={search.get('id')} />;
}
