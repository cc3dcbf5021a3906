// /customers-profile/ai-create: documents in, a reviewed declaration draft out. A proposal
// made here is named in the address (`?id=`), so a reload reopens it from the server.
import { Alert, Anchor, Loader } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { PageLayout } from '@/components/PageLayout';
import { declarationDetailPath } from '@/lib/declarations';
import { useAiT } from '@/features/ai-create/i18n';
import { aiDraftKeys, aiDraftQueryOptions } from '@/features/ai-create/api/aiDrafts';
import { UploadStep } from '@/features/ai-create/components/UploadStep';
import { ReviewStep } from '@/features/ai-create/components/ReviewStep';

export default function AiCreatePage() {
  const { t } = useAiT();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const id = params.get('id') ?? '';
  const draft = useQuery({ ...aiDraftQueryOptions(id), enabled: Boolean(id) });
  const startOver = () => setParams({});

  let content;
  if (!id) {
    content = (
      <UploadStep
        onProposed={(d) => {
          // The answer is the stored proposal: no need to read it again.
          client.setQueryData(aiDraftKeys.detail(d.id), d);
          setParams({ id: d.id });
        }}
      />
    );
  } else if (draft.isLoading) {
    content = <Loader size="sm" />;
  } else if (draft.isError || !draft.data) {
    content = (
      <Alert color="red" role="alert">
        {t('failed', { message: draft.error?.message ?? '' })}{' '}
        <Anchor component="button" type="button" onClick={startOver}>
          {t('review.startOver')}
        </Anchor>
      </Alert>
    );
  } else if (draft.data.declarationId) {
    content = (
      <Alert color="blue">
        {t('review.alreadyAccepted')}{' '}
        <Anchor
          component={Link}
          to={declarationDetailPath('staff', draft.data.declarationType, draft.data.declarationId)}
        >
          {t('review.openDeclaration')}
        </Anchor>
      </Alert>
    );
  } else {
    content = <ReviewStep key={draft.data.id} draft={draft.data} onStartOver={startOver} />;
  }
  return <PageLayout title={id ? t('review.title') : t('title')}>{content}</PageLayout>;
}
