// The upload button of one requested document's slot (`slot` given, named by `slotName`) or
// of another file: one file at a time, so while one uploads the others are disabled.
import { Button, FileButton } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useExcT } from '@/shared/clearance-exceptions/i18n';
import { ACCEPTED_TYPES } from '../model/documents';

export function SlotUploadButton({
  slot,
  slotName,
  hasSlots,
  uploading,
  onFile,
}: {
  slot?: string;
  slotName?: string;
  /** The exception asks for documents: the button without a slot is for another file. */
  hasSlots: boolean;
  /** The slot being uploaded ('' for another file), or null when none is. */
  uploading: string | null;
  onFile: (file: File | null, slot?: string) => void;
}) {
  const { t } = useExcT();
  const mine = slot ?? '';
  return (
    <FileButton onChange={(f) => onFile(f, slot)} accept={ACCEPTED_TYPES}>
      {(props) => (
        <Button
          {...props}
          size={slot ? 'compact-sm' : 'sm'}
          variant="light"
          leftSection={<IconUpload size={16} />}
          loading={uploading === mine}
          disabled={uploading !== null && uploading !== mine}
          aria-label={slot ? t('detail.uploadFor', { name: slotName ?? slot }) : undefined}
        >
          {slot ? t('detail.uploadSlot') : hasSlots ? t('detail.uploadOther') : t('detail.upload')}
        </Button>
      )}
    </FileButton>
  );
}
