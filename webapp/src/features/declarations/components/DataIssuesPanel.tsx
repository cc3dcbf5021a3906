// What staff should see before declaring (status 1) or declaring again (status 10): the
// stored declaration checked by the server's own rules (POST /api/v1/declarations/validate,
// nothing stored): the problems a declaring would meet and the warnings worth a second look
// (a goods line in another currency than the header), each named as the form labels it.
import { Alert, List, Loader, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useDeclT } from '@/shared/declarations/i18n';
import { validateQueryOptions } from '@/shared/declarations/api/validateDeclaration';
import { toFormValues, toPayload } from '@/shared/declarations/model/formValues';
import type { Declaration } from '@/shared/declarations/model/types';

export function DataIssuesPanel({ declaration: d }: { declaration: Declaration }) {
  const { t } = useDeclT();
  const check = useQuery(
    validateQueryOptions({
      declarationType: d.declarationType,
      customerId: d.customerId,
      data: toPayload(toFormValues(d)),
    }),
  );
  if (check.isPending) {
    return (
      <Alert color="gray" variant="light" icon={<Loader size={16} />} title={t('issues.title')}>
        <Text size="sm">{t('issues.checking')}</Text>
      </Alert>
    );
  }
  if (check.isError) {
    return (
      <Alert color="orange" variant="light" title={t('issues.title')}>
        <Text size="sm">{t('issues.failed', { message: check.error.message })}</Text>
      </Alert>
    );
  }
  const { problems, warnings = [] } = check.data;
  if (problems.length === 0 && warnings.length === 0) {
    return (
      <Alert
        color="teal"
        variant="light"
        icon={<IconCircleCheck size={18} />}
        title={t('issues.title')}
        data-testid="data-issues"
      >
        <Text size="sm">{t('issues.none')}</Text>
      </Alert>
    );
  }
  return (
    <Alert
      color={problems.length > 0 ? 'red' : 'yellow'}
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title={t('issues.title')}
      data-testid="data-issues"
    >
      {problems.length > 0 && (
        <>
          <Text size="sm" fw={600}>
            {t('issues.problems', { count: problems.length })}
          </Text>
          <List size="sm" mb={warnings.length > 0 ? 'xs' : 0}>
            {problems.map((p) => (
              <List.Item key={`${p.field}:${p.rule}`}>{p.message}</List.Item>
            ))}
          </List>
        </>
      )}
      {warnings.length > 0 && (
        <>
          <Text size="sm" fw={600}>
            {t('issues.warnings', { count: warnings.length })}
          </Text>
          <List size="sm">
            {warnings.map((w) => (
              <List.Item key={`${w.field}:${w.rule}`}>{w.message}</List.Item>
            ))}
          </List>
        </>
      )}
    </Alert>
  );
}
