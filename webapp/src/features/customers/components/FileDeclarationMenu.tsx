// "File a declaration" for a customer: a menu of the types the customer files, each opening
// the staff declaration form with the customer preselected (`?customerId=`).
import { ActionIcon, Button, Menu, Tooltip } from '@mantine/core';
import { IconFilePlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { fileDeclarationPath, filedTypes } from '../model/links';
import type { CustomerSummary } from '@/shared/customers/model/types';

export function FileDeclarationMenu({
  customer,
  compact,
}: {
  customer: Pick<CustomerSummary, 'customerId' | 'username' | 'declarationTypes' | 'status'>;
  /** An icon (list rows) rather than a button (detail page). */
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const label = t('customers.action.file');
  const disabled = customer.status === 'disabled';
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        {compact ? (
          <Tooltip label={disabled ? t('customers.list.disabledNoFiling') : label}>
            <ActionIcon
              variant="subtle"
              aria-label={`${label} ${customer.username}`}
              disabled={disabled}
            >
              <IconFilePlus size={18} />
            </ActionIcon>
          </Tooltip>
        ) : (
          <Button variant="light" leftSection={<IconFilePlus size={16} />} disabled={disabled}>
            {label}
          </Button>
        )}
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('customers.detail.fileFor', { username: customer.username })}</Menu.Label>
        {filedTypes(customer.declarationTypes).map((type) => (
          <Menu.Item
            key={type}
            onClick={() => navigate(fileDeclarationPath(type, customer.customerId))}
          >
            {t(`declarationType.${type}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
