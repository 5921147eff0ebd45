import { Alert, Group, Stack, Text } from '@mantine/core';
import type { paths } from '../../api/schema.generated.js';
import { useI18n } from '../../i18n/index.js';
import { EinvoiceBadge, useDateTime } from './SefBadge.js';

type Fiscalization =
  paths['/api/v1/invoices/{id}/fiscalization']['get']['responses'][200]['content']['application/json'];
/** One Croatian fiscalization message's state as the API gives it (e-invoice, credit note, payment, receipt, rejection). */
export type FiscState = NonNullable<Fiscalization['fiscalization']>;

/** A label and its value on one line (wrapping on a phone). */
export function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed" style={{ minWidth: 150 }}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
        {children}
      </Text>
    </Group>
  );
}

/**
 * One fiscalization message: its title and status, the message id, when the Tax Administration
 * answered, the attempts and the next one while pending, and its error codes (or what the service
 * could not build). `testId` names the block for the browser tests.
 */
export function FiscMessage({
  title,
  state,
  none,
  testId,
  children,
}: {
  title: string;
  state: FiscState | null;
  none?: string;
  testId?: string;
  children?: React.ReactNode;
}) {
  const { t } = useI18n();
  const dateTime = useDateTime();
  return (
    <Stack gap={4} data-testid={testId} component="section" aria-label={title}>
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={700}>
          {title}
        </Text>
        {state ? <EinvoiceBadge kind="fisc" status={state.status} /> : null}
      </Group>
      {state ? (
        <>
          <Field label={t('einvoice.fisc.requestId')}>
            <Text span size="xs" ff="monospace">
              {state.requestId}
            </Text>
          </Field>
          {state.answeredAt ? <Field label={t('einvoice.fisc.answeredAt')}>{dateTime(state.answeredAt)}</Field> : null}
          <Field label={t('einvoice.sef.updatedAt')}>{dateTime(state.updatedAt)}</Field>
          {state.status === 'Pending' ? (
            <>
              {state.attempts > 0 ? <Field label={t('einvoice.fisc.attempts')}>{state.attempts}</Field> : null}
              {state.nextAttemptAt ? (
                <Field label={t('einvoice.fisc.nextAttempt')}>{dateTime(state.nextAttemptAt)}</Field>
              ) : null}
              <Alert color="yellow" role="status" p="xs">
                <Text size="sm">{t('einvoice.fisc.pendingHelp')}</Text>
              </Alert>
            </>
          ) : null}
          {state.errors.length || state.lastError ? (
            <Field label={t('einvoice.fisc.errors')}>
              <div data-testid={testId ? `${testId}-errors` : undefined}>
                {state.errors.map((e) => (
                  <div key={e.code + e.message}>
                    {e.code}: {e.message}
                  </div>
                ))}
                {state.lastError && !state.errors.length ? <div>{state.lastError}</div> : null}
              </div>
            </Field>
          ) : null}
        </>
      ) : none ? (
        <Text size="sm">{none}</Text>
      ) : null}
      {children}
    </Stack>
  );
}
