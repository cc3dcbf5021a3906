// Loads the declaration to edit (or none for a new one) and shows the form.
import { useState } from 'react';
import { Alert, Center, Loader } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import type { Area, DeclarationType } from '@/lib/declarations';
import type { FieldError } from '@/lib/request';
import { useDeclT } from '@/shared/declarations/i18n';
import { useDeclaration } from '@/shared/declarations/api/getDeclaration';
import { declarationKeys } from '@/shared/declarations/api/keys';
import { DeclarationForm } from './DeclarationForm';

export function FormScreen({
  declarationType,
  area,
  id,
}: {
  declarationType: DeclarationType;
  area: Area;
  id?: string | null;
}) {
  const { t } = useDeclT();
  const client = useQueryClient();
  const query = useDeclaration(id);
  // Field errors of a submit refused on the detail page arrive with the navigation.
  const location = useLocation();
  const initialErrors = (location.state as { fieldErrors?: FieldError[] } | null)?.fieldErrors;
  // Bumped by a reload after a version conflict: the form remounts with the server's state.
  // (A refetch after the form's own save must not reset what the user is typing.)
  const [generation, setGeneration] = useState(0);
  if (!id) return <DeclarationForm key="new" declarationType={declarationType} area={area} />;
  if (query.isLoading)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  if (query.isError || !query.data)
    return (
      <Alert color="red" role="alert">
        {t('detail.notFound')}
      </Alert>
    );
  const d = query.data;
  return (
    <DeclarationForm
      key={`${d.id}-${generation}`}
      declarationType={d.declarationType}
      area={area}
      existing={d}
      initialErrors={generation === 0 ? initialErrors : undefined}
      onReload={() =>
        void client
          .refetchQueries({ queryKey: declarationKeys.detail(d.id) })
          .then(() => setGeneration((g) => g + 1))
      }
    />
  );
}
