import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ApiError } from '../api/client.js';
import { useI18n } from '../i18n/index.js';

/** Loading, error and empty states, the same on every screen. */
export function Loading() {
  const { t } = useI18n();
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Loader size="sm" aria-hidden />
      <Text ml="sm">{t('app.loading')}</Text>
    </Center>
  );
}

/** The API's message (already in the caller's language) or a generic one, with a retry button. */
/**
 * An error in the catalog envelope: its message (in the organization's language) and code; with
 * `reasons`, also the detail texts under `reasons` (a refusal's why, e.g. what keeps an account).
 */
export function ErrorState({ error, retry, reasons }: { error: unknown; retry?: () => void; reasons?: string }) {
  const { t } = useI18n();
  const message =
    error instanceof ApiError ? (error.status === 403 ? t('app.forbidden') : error.message) : t('app.error');
  const why = reasons && error instanceof ApiError ? (error.details[reasons] ?? []) : [];
  return (
    <Alert color="red" title={t('app.error')} role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{message}</Text>
        {why.map((text) => (
          <Text size="sm" key={text}>
            {/* A detail is a lower-case phrase ("the account has sub-accounts"): shown as a sentence. */}
            {text.charAt(0).toLocaleUpperCase() + text.slice(1)}
          </Text>
        ))}
        {error instanceof ApiError && error.code.startsWith('SVC') ? (
          <Text size="xs" c="dimmed">
            {error.code}
          </Text>
        ) : null}
        {retry ? (
          <Button size="xs" variant="light" color="red" onClick={retry}>
            {t('app.retry')}
          </Button>
        ) : null}
      </Stack>
    </Alert>
  );
}

export function Empty({ children }: { children?: ReactNode }) {
  const { t } = useI18n();
  return (
    <Center py="xl">
      <Text c="dimmed">{children ?? t('app.empty')}</Text>
    </Center>
  );
}

/**
 * Field errors of a 422 envelope keyed by field path ("items[0].unitPrice"). The API writes its field
 * details in English; outside English the field shows the localized "invalid value" instead (the
 * envelope's own message, already in the caller's language, is shown above the buttons).
 */
export function useFieldErrors(error: unknown): Record<string, string> {
  const { t, locale } = useI18n();
  if (!(error instanceof ApiError)) return {};
  return Object.fromEntries(
    Object.entries(error.details).map(([k, v]) => [k, locale === 'en' ? v.join(', ') : t('app.invalidField')]),
  );
}
