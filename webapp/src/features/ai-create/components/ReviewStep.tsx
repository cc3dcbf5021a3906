// Step 2: the documents' text lines beside the proposed fields. Each field shows its source
// (document page and line, trade company, product library, computed, language model) and its
// confidence (coloured); the reviewer accepts, edits or rejects each, or accepts all; saving
// makes the declaration and opens it.
import { Fragment, useMemo, useState } from 'react';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Grid,
  Group,
  List,
  ScrollArea,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconArrowBackUp, IconCheck, IconChecks, IconEdit, IconX } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useChangeLabel } from '@/shared/declarations/components/useChangeLabel';
import { HsCodeInput } from '@/shared/hs-codes/components/HsCodeInput';
import { declarationDetailPath } from '@/lib/declarations';
import { message } from '@/lib/message';
import { ApiError } from '@/lib/request';
import { useAiT } from '../i18n';
import { useAcceptAiDraft } from '../api/aiDrafts';
import {
  acceptAll,
  citedLines,
  confidenceColor,
  confidencePercent,
  initialReview,
  lineKey,
  parseLocation,
  proposedFields,
  reviewCounts,
  reviewedForm,
  valueText,
  type ProposedField,
} from '../model/review';
import type { AiDraft, FieldReview } from '../model/types';

const DECISION_COLORS = {
  pending: 'gray',
  accepted: 'green',
  edited: 'blue',
  rejected: 'red',
} as const;

function SourceCell({ field }: { field: ProposedField }) {
  const { t } = useAiT();
  const loc = parseLocation(field.proposal.location);
  return (
    <Stack gap={0}>
      <Text size="xs" fw={500}>
        {t(`sourceName.${field.proposal.source}`, { defaultValue: field.proposal.source })}
      </Text>
      {field.proposal.location && (
        <Text size="xs" c="dimmed">
          {loc ? t('location', { ...loc }) : field.proposal.location}
        </Text>
      )}
    </Stack>
  );
}

export function ReviewStep({ draft, onStartOver }: { draft: AiDraft; onStartOver: () => void }) {
  const { t, i18n } = useAiT();
  const label = useChangeLabel();
  const navigate = useNavigate();
  const fields = useMemo(() => proposedFields(draft), [draft]);
  const cited = useMemo(() => citedLines(fields), [fields]);
  const [review, setReview] = useState<Record<string, FieldReview>>(() => initialReview(fields));
  const [hovered, setHovered] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const accept = useAcceptAiDraft();
  const counts = reviewCounts(review);
  const byPath = useMemo(() => new Map(fields.map((f) => [f.path, f])), [fields]);

  const hoveredLine = (() => {
    const loc = hovered ? parseLocation(byPath.get(hovered)?.proposal.location) : null;
    return loc ? lineKey(loc.document, loc.page, loc.line) : null;
  })();

  const set = (path: string, next: Partial<FieldReview>) =>
    setReview((r) => ({ ...r, [path]: { ...r[path], ...next } }));

  const save = () => {
    setProblem(null);
    accept.mutate(
      { id: draft.id, version: draft.version, form: reviewedForm(draft, fields, review) },
      {
        onSuccess: (answer) => {
          message.success(t('review.saved'));
          navigate(declarationDetailPath('staff', draft.declarationType, answer.id));
        },
        onError: (e) => {
          const detail =
            e instanceof ApiError && e.fieldErrors.length > 0
              ? e.fieldErrors.map((f) => `${label(f.field)}: ${f.message}`).join('; ')
              : e.message;
          setProblem(detail);
        },
      },
    );
  };

  const groups: { title: string; items: ProposedField[] }[] = [
    { title: t('review.header'), items: fields.filter((f) => f.line === undefined) },
    ...draft.goods.map((_, i) => ({
      title: t('review.goodsLine', { n: i + 1 }),
      items: fields.filter((f) => f.line === i),
    })),
  ];

  const row = (f: ProposedField) => {
    const r = review[f.path];
    const color = confidenceColor(f.proposal.confidence);
    return (
      <Table.Tr
        key={f.path}
        data-field={f.path}
        data-decision={r.decision}
        onMouseEnter={() => setHovered(f.path)}
        onMouseLeave={() => setHovered(null)}
        style={{
          borderLeft: `4px solid var(--mantine-color-${color}-5)`,
          background: hovered === f.path ? 'var(--mantine-color-blue-light)' : undefined,
        }}
      >
        <Table.Td>
          <Text size="sm">
            {f.line === undefined ? label(f.path) : label(f.path).split(' · ').pop()}
          </Text>
        </Table.Td>
        <Table.Td miw={160}>
          {r.decision === 'edited' && f.name === 'goodsCode' && f.line !== undefined ? (
            // The HS field: suggestions for the line's goods name or the digits typed.
            <HsCodeInput
              size="xs"
              aria-label={label(f.path)}
              value={r.edited}
              onChange={(code) => set(f.path, { edited: code })}
              onFocus={() => setHovered(f.path)}
              description={valueText(draft.goods[f.line]?.goodsName?.value)}
              customerId={draft.customerId}
              autoFocus
            />
          ) : r.decision === 'edited' ? (
            <TextInput
              size="xs"
              aria-label={label(f.path)}
              value={r.edited}
              onChange={(e) => set(f.path, { edited: e.currentTarget.value })}
              onFocus={() => setHovered(f.path)}
              autoFocus
            />
          ) : (
            <Text
              size="sm"
              td={r.decision === 'rejected' ? 'line-through' : undefined}
              c={r.decision === 'rejected' ? 'dimmed' : undefined}
            >
              {valueText(f.proposal.value)}
            </Text>
          )}
        </Table.Td>
        <Table.Td>
          <SourceCell field={f} />
        </Table.Td>
        <Table.Td>
          <Badge color={color} variant="light" size="sm">
            {confidencePercent(f.proposal.confidence)}
          </Badge>
        </Table.Td>
        <Table.Td>
          <Group gap={4} wrap="nowrap">
            {r.decision !== 'pending' && (
              <Badge color={DECISION_COLORS[r.decision]} variant="outline" size="xs">
                {t(`review.${r.decision}`)}
              </Badge>
            )}
            {r.decision === 'pending' ? (
              <>
                <Tooltip label={t('review.accept')}>
                  <ActionIcon
                    size="sm"
                    variant="light"
                    color="green"
                    aria-label={`${t('review.accept')} ${label(f.path)}`}
                    onClick={() => set(f.path, { decision: 'accepted' })}
                  >
                    <IconCheck size={14} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t('review.edit')}>
                  <ActionIcon
                    size="sm"
                    variant="light"
                    color="blue"
                    aria-label={`${t('review.edit')} ${label(f.path)}`}
                    onClick={() => set(f.path, { decision: 'edited' })}
                  >
                    <IconEdit size={14} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t('review.reject')}>
                  <ActionIcon
                    size="sm"
                    variant="light"
                    color="red"
                    aria-label={`${t('review.reject')} ${label(f.path)}`}
                    onClick={() => set(f.path, { decision: 'rejected' })}
                  >
                    <IconX size={14} />
                  </ActionIcon>
                </Tooltip>
              </>
            ) : (
              <Tooltip label={t('review.undo')}>
                <ActionIcon
                  size="sm"
                  variant="subtle"
                  color="gray"
                  aria-label={`${t('review.undo')} ${label(f.path)}`}
                  onClick={() =>
                    set(f.path, { decision: 'pending', edited: valueText(f.proposal.value) })
                  }
                >
                  <IconArrowBackUp size={14} />
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
        </Table.Td>
      </Table.Tr>
    );
  };

  const reason = draft.class
    ? i18n.language.startsWith('en')
      ? draft.class.reasonEn
      : draft.class.reasonZh
    : '';

  return (
    <Stack>
      {(draft.class || draft.warnings.length > 0) && (
        <Card withBorder p="md">
          <Stack gap="xs">
            {draft.class && (
              <Group gap="xs" align="baseline">
                <Badge size="lg" variant="filled">
                  {t('review.class', { class: draft.class.class })}
                </Badge>
                <Text size="sm">{reason}</Text>
              </Group>
            )}
            {draft.warnings.length > 0 && (
              <Alert color="yellow" title={t('review.warnings')} p="xs">
                <List size="sm" spacing={2}>
                  {draft.warnings.map((w) => (
                    <List.Item key={w}>{w}</List.Item>
                  ))}
                </List>
              </Alert>
            )}
          </Stack>
        </Card>
      )}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Card withBorder p="sm">
            <Title order={4} size="h5" mb="xs">
              {t('review.documents')}
            </Title>
            <ScrollArea.Autosize mah={640} type="auto">
              {draft.documents.map((doc) => (
                <Stack key={doc.name} gap={0} mb="sm" aria-label={doc.name}>
                  <Text size="xs" fw={600} c="dimmed">
                    {doc.name} · {doc.kind} · {(doc.size / 1024).toFixed(1)} KB
                  </Text>
                  {doc.lines.length === 0 && (
                    <Text size="xs" c="dimmed">
                      {t('review.noLines')}
                    </Text>
                  )}
                  {doc.lines.map((l) => {
                    const key = lineKey(doc.name, l.page, l.line);
                    const paths = cited.get(key) ?? [];
                    const best = Math.max(
                      0,
                      ...paths.map((p) => byPath.get(p)?.proposal.confidence ?? 0),
                    );
                    const line = (
                      <Group
                        gap={6}
                        wrap="nowrap"
                        data-line={`${l.page}:${l.line}`}
                        style={{
                          fontFamily: 'var(--mantine-font-family-monospace)',
                          fontSize: 12,
                          padding: '1px 4px',
                          borderRadius: 2,
                          outline:
                            hoveredLine === key
                              ? '2px solid var(--mantine-color-blue-6)'
                              : undefined,
                          background:
                            paths.length > 0
                              ? `var(--mantine-color-${confidenceColor(best)}-light)`
                              : undefined,
                        }}
                      >
                        <Text span size="xs" c="dimmed" w={44} style={{ flexShrink: 0 }}>
                          {l.page}:{l.line}
                        </Text>
                        <Text span size="xs" style={{ whiteSpace: 'pre-wrap' }}>
                          {l.text}
                        </Text>
                      </Group>
                    );
                    return paths.length > 0 ? (
                      <Tooltip
                        key={key}
                        label={t('review.cited', { fields: paths.map(label).join(', ') })}
                        multiline
                        maw={360}
                      >
                        {line}
                      </Tooltip>
                    ) : (
                      <Fragment key={key}>{line}</Fragment>
                    );
                  })}
                </Stack>
              ))}
            </ScrollArea.Autosize>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Card withBorder p="sm">
            <Group justify="space-between" mb="xs">
              <Title order={4} size="h5">
                {t('review.fields')}
              </Title>
              <Group gap="xs">
                <Text size="xs" c="dimmed" data-testid="review-counts">
                  {t('review.counts', counts)}
                </Text>
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconChecks size={14} />}
                  onClick={() => setReview(acceptAll)}
                  disabled={counts.pending === 0}
                >
                  {t('review.acceptAll')}
                </Button>
              </Group>
            </Group>
            <Table.ScrollContainer minWidth={640}>
              <Table verticalSpacing={4} fz="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('review.field')}</Table.Th>
                    <Table.Th>{t('review.value')}</Table.Th>
                    <Table.Th>{t('review.source')}</Table.Th>
                    <Table.Th>{t('review.confidence')}</Table.Th>
                    <Table.Th>{t('review.decision')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {groups
                    .filter((g) => g.items.length > 0)
                    .map((g) => (
                      <Fragment key={g.title}>
                        <Table.Tr>
                          <Table.Td colSpan={5} bg="var(--mantine-color-gray-light)">
                            <Text size="xs" fw={700}>
                              {g.title}
                            </Text>
                          </Table.Td>
                        </Table.Tr>
                        {g.items.map(row)}
                      </Fragment>
                    ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Text size="xs" c="dimmed" mt="xs">
              {t('review.pendingNote')}
            </Text>
          </Card>
        </Grid.Col>
      </Grid>
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onStartOver} disabled={accept.isPending}>
          {t('review.startOver')}
        </Button>
        <Button onClick={save} loading={accept.isPending} leftSection={<IconCheck size={16} />}>
          {t('review.save')}
        </Button>
      </Group>
    </Stack>
  );
}
