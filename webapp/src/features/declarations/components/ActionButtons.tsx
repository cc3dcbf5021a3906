import { ActionIcon, Button, Group, Menu, Tooltip } from '@mantine/core';
import {
  IconArrowBackUp,
  IconCheck,
  IconChecks,
  IconDots,
  IconEdit,
  IconEye,
  IconPencilCog,
  IconRepeat,
  IconSend,
  IconTrash,
  IconX,
  type Icon,
} from '@tabler/icons-react';
import { useDeclT } from '@/shared/declarations/i18n';
import { DANGEROUS, type DeclarationAction } from '@/shared/declarations/model/actions';

const ACTION_ICONS: Record<DeclarationAction, Icon> = {
  edit: IconEdit,
  submit: IconSend,
  withdraw: IconArrowBackUp,
  review: IconCheck,
  return: IconArrowBackUp,
  complete: IconChecks,
  reject: IconX,
  redeclare: IconRepeat,
  'send-back': IconArrowBackUp,
  amend: IconPencilCog,
  delete: IconTrash,
};

/** The detail page's buttons: one per allowed action. */
export function ActionButtons({
  actions,
  onAction,
  loading,
}: {
  actions: DeclarationAction[];
  onAction: (action: DeclarationAction) => void;
  loading?: boolean;
}) {
  const { t } = useDeclT();
  return (
    <Group gap="xs">
      {actions.map((a) => {
        const Icon = ACTION_ICONS[a];
        return (
          <Button
            key={a}
            size="sm"
            variant={a === 'edit' ? 'default' : DANGEROUS.includes(a) ? 'light' : 'filled'}
            color={DANGEROUS.includes(a) ? 'red' : undefined}
            leftSection={<Icon size={16} />}
            onClick={() => onAction(a)}
            disabled={loading}
          >
            {t(`action.${a}`)}
          </Button>
        );
      })}
    </Group>
  );
}

/** A list row's actions: view, the first two allowed actions as icons, the rest in a menu. */
export function RowActions({
  actions,
  onAction,
  onView,
  label,
}: {
  actions: DeclarationAction[];
  onAction: (action: DeclarationAction) => void;
  onView: () => void;
  /** The row's tracking number, for accessible names. */
  label: string;
}) {
  const { t } = useDeclT();
  const inline = actions.slice(0, 2);
  const rest = actions.slice(2);
  return (
    <Group gap={4} wrap="nowrap" onClick={(e) => e.stopPropagation()}>
      <Tooltip label={t('list.view')}>
        <ActionIcon variant="subtle" aria-label={`${t('list.view')} ${label}`} onClick={onView}>
          <IconEye size={18} />
        </ActionIcon>
      </Tooltip>
      {inline.map((a) => {
        const Icon = ACTION_ICONS[a];
        return (
          <Tooltip key={a} label={t(`action.${a}`)}>
            <ActionIcon
              variant="subtle"
              color={DANGEROUS.includes(a) ? 'red' : undefined}
              aria-label={`${t(`action.${a}`)} ${label}`}
              onClick={() => onAction(a)}
            >
              <Icon size={18} />
            </ActionIcon>
          </Tooltip>
        );
      })}
      {rest.length > 0 && (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" aria-label={`${t('action.more')} ${label}`}>
              <IconDots size={18} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            {rest.map((a) => {
              const Icon = ACTION_ICONS[a];
              return (
                <Menu.Item
                  key={a}
                  color={DANGEROUS.includes(a) ? 'red' : undefined}
                  leftSection={<Icon size={16} />}
                  onClick={() => onAction(a)}
                >
                  {t(`action.${a}`)}
                </Menu.Item>
              );
            })}
          </Menu.Dropdown>
        </Menu>
      )}
    </Group>
  );
}
