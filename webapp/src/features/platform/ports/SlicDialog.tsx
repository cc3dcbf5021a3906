// Add or edit one facility SLIC of a port (POST/PUT /api/v1/ports/{id}/slics[/{slicId}]).
import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { showMessage } from '@/lib/message';
import { useAddSlic } from '../api/addSlic';
import { useUpdateSlic } from '../api/updateSlic';
import type { PortRecord, SlicInfo } from '@/shared/platform/api/types';
import { FormError } from '@/shared/platform/components/FormError';
import { errorText, fieldErrorsOf } from '@/shared/platform/model/errors';

const FIELDS = ['upsFacilityName', 'upsFacilitySlic'] as const;

export interface SlicDialogProps {
  port: PortRecord;
  slic: SlicInfo | null;
  onClose: () => void;
}

export function SlicDialog({ port, slic, onClose }: SlicDialogProps) {
  const { t } = useTranslation();
  const add = useAddSlic();
  const update = useUpdateSlic();
  const [name, setName] = useState(slic?.upsFacilityName ?? '');
  const [code, setCode] = useState(slic?.upsFacilitySlic ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const submit = async () => {
    setFormError(null);
    const local: Record<string, string> = {};
    const required = (label: string) => t('platform.staff.form.required', { field: label });
    if (!name.trim()) local.upsFacilityName = required(t('platform.ports.slic.name'));
    if (!code.trim()) local.upsFacilitySlic = required(t('platform.ports.slic.code'));
    setErrors(local);
    if (Object.keys(local).length) return;
    const body = { upsFacilityName: name.trim(), upsFacilitySlic: code.trim() };
    try {
      if (slic)
        await update.mutateAsync({ portId: port.id, slicId: slic.id, version: port.version, body });
      else await add.mutateAsync({ portId: port.id, version: port.version, body });
      showMessage('success', t('platform.ports.done.slicSaved'));
      onClose();
    } catch (e) {
      const fields = fieldErrorsOf(e, FIELDS);
      setErrors(fields);
      if (!Object.keys(fields).length) setFormError(errorText(e));
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={t(slic ? 'platform.ports.slic.edit' : 'platform.ports.slic.add')}
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
          <Text size="sm" c="dimmed">
            {port.portCode} · {port.portName}
          </Text>
          <TextInput
            label={t('platform.ports.slic.name')}
            required
            maxLength={100}
            value={name}
            error={errors.upsFacilityName}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <TextInput
            label={t('platform.ports.slic.code')}
            required
            maxLength={20}
            value={code}
            error={errors.upsFacilitySlic}
            onChange={(e) => setCode(e.currentTarget.value)}
          />
          <FormError message={formError} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('platform.common.cancel')}
            </Button>
            <Button type="submit" loading={add.isPending || update.isPending}>
              {t('platform.common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
