// The exception form (spec "Exception and documents", "Notification contact"): the thirteen
// document flags and other documents, the exception details, the five proposed changes
// old -> new, the channels, the contacts, other remarks and the summary. Controlled: the
// page holds the values and the error messages (field path -> text).
import type { ReactNode } from 'react';
import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useContactBook } from '@/shared/contact-book/api/contactBook';
import { ContactInput } from '@/shared/contact-book/components/ContactInput';
import { offeredFor } from '@/shared/contact-book/model/contacts';
import { useExcT } from '@/shared/clearance-exceptions/i18n';
import {
  MAX_ADDRESS,
  MAX_CODE,
  MAX_DETAIL,
  MAX_LINES,
  MAX_SUMMARY,
  MAX_TEXT,
  type ExceptionFormValues,
} from '../model/form';
import {
  CHANGE_FLAGS,
  CHANGE_FLAG_NAMES,
  CHANNEL_FLAGS,
  DOCUMENT_FLAGS,
  NEW_VALUE_FIELDS,
  type ContactField,
} from '@/shared/clearance-exceptions/model/types';

export interface ExceptionFormProps {
  values: ExceptionFormValues;
  onChange: (next: ExceptionFormValues) => void;
  errors: Record<string, string>;
  /** The declaration's customer: their saved contacts are offered in the contact fields. */
  customerId?: string;
  /**
   * Who fills it in. Staff get the whole spec form; a customer gets what they can tell us
   * (what is wrong, the documents they will send, the changes they ask for, how to reach
   * them), without exception codes, notice channels or the contacts' WeChat ids and payer
   * accounts.
   */
  audience?: 'staff' | 'customer';
}

function Section({
  title,
  error,
  children,
}: {
  title: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="md" component="fieldset" style={{ margin: 0 }}>
      <Title order={2} size="h5" mb="sm" component="legend" px={4}>
        {title}
      </Title>
      {children}
      {error && (
        <Text c="red" size="sm" mt="xs" role="alert">
          {error}
        </Text>
      )}
    </Paper>
  );
}

/** An editable list of strings with add / remove. */
function StringList({
  items,
  label,
  addLabel,
  path,
  errors,
  max,
  onChange,
}: {
  items: string[];
  label: string;
  addLabel: string;
  path: string;
  errors: Record<string, string>;
  max: number;
  onChange: (next: string[]) => void;
}) {
  const { t } = useExcT();
  return (
    <Stack gap="xs">
      {items.map((item, i) => (
        <Group key={i} gap="xs" align="flex-start" wrap="nowrap">
          <TextInput
            aria-label={`${label} ${i + 1}`}
            value={item}
            maxLength={max}
            error={errors[`${path}[${i}]`]}
            onChange={(e) => onChange(items.map((v, j) => (j === i ? e.currentTarget.value : v)))}
            style={{ flex: 1 }}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            mt={4}
            aria-label={`${t('common.remove')} ${label} ${i + 1}`}
            onClick={() => onChange(items.filter((_, j) => j !== i))}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      {items.length < MAX_LINES && (
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconPlus size={14} />}
          onClick={() => onChange([...items, ''])}
          style={{ alignSelf: 'flex-start' }}
        >
          {addLabel}
        </Button>
      )}
    </Stack>
  );
}

const CONTACT_GROUPS: { key: string; fields: ContactField[] }[] = [
  { key: 'shipper', fields: ['shipperWechat', 'shipperEmail', 'shipperSms'] },
  { key: 'recipient', fields: ['recipientWechat', 'recipientEmail', 'recipientSms'] },
  {
    key: 'account',
    fields: ['upsAccount', 'upsAccountWechat', 'upsAccountEmail', 'upsAccountSms'],
  },
];

export function ExceptionForm({
  values,
  onChange,
  errors,
  customerId,
  audience = 'staff',
}: ExceptionFormProps) {
  const { t } = useExcT();
  const customer = audience === 'customer';
  const book = useContactBook(customer ? undefined : customerId);
  const saved = book.data?.contacts ?? [];
  const patch = (p: Partial<ExceptionFormValues>) => onChange({ ...values, ...p });

  return (
    <Stack>
      {customer && (
        <Section title={t('form.customer.whatTitle')}>
          <Textarea
            label={t('form.customer.summary')}
            description={t('form.customer.summaryHint')}
            withAsterisk
            autosize
            minRows={3}
            maxLength={MAX_SUMMARY}
            value={values.exceptionSummary}
            error={errors.exceptionSummary}
            onChange={(e) => patch({ exceptionSummary: e.currentTarget.value })}
          />
        </Section>
      )}
      <Section
        title={customer ? t('form.customer.documentsTitle') : t('form.documentsTitle')}
        error={errors.documents}
      >
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="xs">
          {DOCUMENT_FLAGS.map((flag) => (
            <Checkbox
              key={flag}
              label={t(`document.${flag}`)}
              checked={values.documents[flag]}
              onChange={(e) =>
                patch({ documents: { ...values.documents, [flag]: e.currentTarget.checked } })
              }
            />
          ))}
        </SimpleGrid>
        <Text size="sm" fw={500} mt="md" mb={4}>
          {t('form.otherDocuments')}
        </Text>
        <StringList
          items={values.otherDocuments}
          label={t('form.otherDocuments')}
          addLabel={t('form.addOtherDocument')}
          path="otherDocuments"
          errors={errors}
          max={MAX_TEXT}
          onChange={(otherDocuments) => patch({ otherDocuments })}
        />
      </Section>

      <Section title={customer ? t('form.customer.changesTitle') : t('form.changesTitle')}>
        <Stack gap="xs">
          {CHANGE_FLAG_NAMES.map((flag) => {
            const field = CHANGE_FLAGS[flag];
            const on = values.changes[flag];
            return (
              <Group key={flag} align="flex-start" gap="sm" wrap="wrap">
                <Checkbox
                  label={t(`change.${field}`)}
                  checked={on}
                  onChange={(e) =>
                    patch({ changes: { ...values.changes, [flag]: e.currentTarget.checked } })
                  }
                  w={260}
                  mt={8}
                />
                <TextInput
                  aria-label={`${t(`change.${field}`)} ${t('form.old')}`}
                  placeholder={t('form.old')}
                  value={values.current[field]}
                  readOnly
                  variant="filled"
                  w={200}
                />
                <Text mt={6}>→</Text>
                <TextInput
                  aria-label={`${t(`change.${field}`)} ${t('form.new')}`}
                  placeholder={t('form.new')}
                  value={values.proposed[field]}
                  disabled={!on}
                  withAsterisk={on}
                  maxLength={MAX_DETAIL}
                  error={errors[NEW_VALUE_FIELDS[field]]}
                  onChange={(e) =>
                    patch({ proposed: { ...values.proposed, [field]: e.currentTarget.value } })
                  }
                  w={200}
                />
              </Group>
            );
          })}
        </Stack>
      </Section>

      <Section
        title={customer ? t('form.customer.detailsTitle') : t('form.detailsTitle')}
        error={errors.exceptionDetails}
      >
        <Stack gap="xs">
          {values.exceptionDetails.map((line, i) => {
            const setLine = (key: keyof typeof line, v: string) =>
              patch({
                exceptionDetails: values.exceptionDetails.map((l, j) =>
                  j === i ? { ...l, [key]: v } : l,
                ),
              });
            return (
              <Group key={i} gap="xs" align="flex-start" wrap="nowrap">
                {!customer && (
                  <TextInput
                    label={i === 0 ? t('form.exceptionCode') : undefined}
                    aria-label={`${t('form.exceptionCode')} ${i + 1}`}
                    value={line.exceptionCode}
                    maxLength={MAX_CODE}
                    error={errors[`exceptionDetails[${i}].exceptionCode`]}
                    onChange={(e) => setLine('exceptionCode', e.currentTarget.value)}
                    w={140}
                  />
                )}
                <TextInput
                  label={i === 0 ? t('form.exceptionDescription') : undefined}
                  aria-label={`${t('form.exceptionDescription')} ${i + 1}`}
                  value={line.exceptionDescription}
                  maxLength={MAX_DETAIL}
                  error={errors[`exceptionDetails[${i}].exceptionDescription`]}
                  onChange={(e) => setLine('exceptionDescription', e.currentTarget.value)}
                  style={{ flex: 2 }}
                />
                {!customer && (
                  <TextInput
                    label={i === 0 ? t('form.exceptionHandling') : undefined}
                    aria-label={`${t('form.exceptionHandling')} ${i + 1}`}
                    value={line.exceptionHandling}
                    maxLength={MAX_DETAIL}
                    error={errors[`exceptionDetails[${i}].exceptionHandling`]}
                    onChange={(e) => setLine('exceptionHandling', e.currentTarget.value)}
                    style={{ flex: 2 }}
                  />
                )}
                <ActionIcon
                  variant="subtle"
                  color="red"
                  mt={i === 0 ? 30 : 4}
                  aria-label={`${t('common.remove')} ${t('form.detailsTitle')} ${i + 1}`}
                  onClick={() =>
                    patch({ exceptionDetails: values.exceptionDetails.filter((_, j) => j !== i) })
                  }
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            );
          })}
          {values.exceptionDetails.length < MAX_LINES && (
            <Button
              variant="subtle"
              size="compact-sm"
              leftSection={<IconPlus size={14} />}
              style={{ alignSelf: 'flex-start' }}
              onClick={() =>
                patch({
                  exceptionDetails: [
                    ...values.exceptionDetails,
                    { exceptionCode: '', exceptionDescription: '', exceptionHandling: '' },
                  ],
                })
              }
            >
              {t('form.addDetail')}
            </Button>
          )}
        </Stack>
      </Section>

      {customer ? (
        <Section title={t('form.customer.reachTitle')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('form.customer.phone')}
              value={values.personalPhone}
              error={errors.personalPhone}
              onChange={(e) => patch({ personalPhone: e.currentTarget.value })}
            />
            <TextInput
              label={t('form.customer.email')}
              type="email"
              value={values.personalEmail}
              error={errors.personalEmail}
              onChange={(e) => patch({ personalEmail: e.currentTarget.value })}
            />
          </SimpleGrid>
        </Section>
      ) : (
        <>
          <Section title={t('form.channelsTitle')} error={errors.channels}>
            <Group gap="lg">
              {CHANNEL_FLAGS.map((c) => (
                <Checkbox
                  key={c}
                  label={t(`channel.${c}`)}
                  checked={values.channels[c]}
                  error={errors[`channels.${c}`]}
                  onChange={(e) =>
                    patch({ channels: { ...values.channels, [c]: e.currentTarget.checked } })
                  }
                />
              ))}
            </Group>
            <SimpleGrid cols={{ base: 1, sm: 2 }} mt="sm">
              <TextInput
                label={t('channel.personalPhone')}
                value={values.personalPhone}
                error={errors.personalPhone}
                onChange={(e) => patch({ personalPhone: e.currentTarget.value })}
              />
              <TextInput
                label={t('channel.personalEmail')}
                type="email"
                value={values.personalEmail}
                error={errors.personalEmail}
                onChange={(e) => patch({ personalEmail: e.currentTarget.value })}
              />
            </SimpleGrid>
          </Section>

          <Section title={t('form.contactsTitle')}>
            <SimpleGrid cols={{ base: 1, md: 3 }}>
              {CONTACT_GROUPS.map((g) => (
                <Stack key={g.key} gap="xs">
                  <Text size="sm" fw={600}>
                    {t(`contact.${g.key}`)}
                  </Text>
                  {g.fields.map((f) => (
                    <ContactInput
                      key={f}
                      label={t(`contact.${f}`)}
                      offered={offeredFor(saved, f)}
                      value={values.contacts[f]}
                      maxLength={MAX_ADDRESS}
                      error={errors[`notificationContact.${f}`]}
                      onChange={(value) => patch({ contacts: { ...values.contacts, [f]: value } })}
                    />
                  ))}
                </Stack>
              ))}
            </SimpleGrid>
          </Section>
        </>
      )}

      <Section title={customer ? t('form.customer.otherTitle') : t('form.otherDescriptions')}>
        <StringList
          items={values.otherDescriptions}
          label={customer ? t('form.customer.otherTitle') : t('form.otherDescriptions')}
          addLabel={t('form.addOtherDescription')}
          path="otherDescriptions"
          errors={errors}
          max={MAX_TEXT}
          onChange={(otherDescriptions) => patch({ otherDescriptions })}
        />
        {!customer && (
          <Textarea
            mt="md"
            label={t('form.summary')}
            withAsterisk
            autosize
            minRows={3}
            maxLength={MAX_SUMMARY}
            value={values.exceptionSummary}
            error={errors.exceptionSummary}
            onChange={(e) => patch({ exceptionSummary: e.currentTarget.value })}
          />
        )}
      </Section>
    </Stack>
  );
}
