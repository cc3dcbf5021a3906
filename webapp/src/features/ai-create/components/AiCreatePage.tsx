// /customers-profile/ai-create: documents in, a reviewed declaration draft out.
import { useState } from 'react';
import { PageLayout } from '@/components/PageLayout';
import { useAiT } from '../i18n';
import type { AiDraft } from '../model/types';
import { UploadStep } from './UploadStep';
import { ReviewStep } from './ReviewStep';

export default function AiCreatePage() {
  const { t } = useAiT();
  const [draft, setDraft] = useState<AiDraft | null>(null);
  return (
    <PageLayout title={draft ? t('review.title') : t('title')}>
      {draft ? (
        <ReviewStep key={draft.id} draft={draft} onStartOver={() => setDraft(null)} />
      ) : (
        <UploadStep onProposed={setDraft} />
      )}
    </PageLayout>
  );
}
