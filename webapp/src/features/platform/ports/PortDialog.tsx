// Add or edit a port (POST /api/v1/ports, PUT /api/v1/ports/{id} with If-Match); the port
// code is fixed once created.
import { useState, type ChangeEvent } from 'react';
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { showMessage } from '@/lib/message';
import { useCreatePort } from '../api/createPort';
import { useUpdatePort } from '../api/updatePort';
import type { PortRecord } from '@/shared/platform/api/types';
import { FormError } from '@/shared/platform/components/FormError';
import { errorText, fieldErrorsOf } from '@/shared/platform/model/errors';

const FIELDS = ['portCode', 'portName', 'portNameEn', 'declarationSlic'] as const;
type Field = (typeof FIELDS)[number];
const REQUIRED: readonly Field[] = ['portCode', 'portName', 'declarationSlic'];

export function PortDialog({ port, onClose }: { port: PortRecord | null; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreatePort();
  const update = useUpdatePort();
  const [draft, setDraft] = useState<Record<Field, string>>({
    portCode: port?.portCode ?? '',
    portName: port?.portName ?? '',
    portNameEn: port?.portNameEn ?? '',
    declarationSlic: port?.declarationSlic ?? '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const submit = async () => {
    setFormError(null);
    const local: Record<string, string> = {};
    for (const f of REQUIRED)
      if (!draft[f].trim())
        local[f] = t('platform.staff.form.required', { field: t(`platform.ports.col.${f}`) });
    setErrors(local);
    if (Object.keys(local).length) return;
    const body = {
      portName: draft.portName.trim(),
      portNameEn: draft.portNameEn.trim(),
      declarationSlic: draft.declarationSlic.trim(),
    };
    try {
      if (port) {
        await update.mutateAsync({ id: port.id, version: port.version, body });
        showMessage('success', t('platform.ports.done.updated'));
      } else {
        await create.mutateAsync({ portCode: draft.portCode.trim(), ...body });
        showMessage('success', t('platform.ports.done.created'));
      }
      onClose();
    } catch (e) {
      const fields = fieldErrorsOf(e, FIELDS);
      setErrors(fields);
      if (!Object.keys(fields).length) setFormError(errorText(e));
    }
  };

  const field = (name: Field) => ({
    label: t(`platform.ports.col.${name}`),
    value: draft[name],
    error: errors[name],
    required: REQUIRED.includes(name),
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      const value = e.currentTarget.value;
      setDraft((d) => ({ ...d, [name]: value }));
    },
  });

  return (
    <Modal
      opened
      onClose={onClose}
      title={t(port ? 'platform.ports.edit' : 'platform.ports.add')}
      closeOnClickOutside={false}
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack>
          <TextInput {...field('portCode')} disabled={!!port} maxLength={20} />
          <TextInput {...field('portName')} maxLength={100} />
          <TextInput {...field('portNameEn')} maxLength={100} />
          <TextInput {...field('declarationSlic')} maxLength={20} />
          <FormError message={formError} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('platform.common.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending}>
              {t('platform.common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
