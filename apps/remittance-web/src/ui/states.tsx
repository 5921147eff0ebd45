import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ApiError } from '../api/client.js';
import { type MessageKey, useI18n } from '../i18n/index.js';

/** Loading, error and empty states, the same on every screen. */
export function Loading() {
  const { t } = useI18n();
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Loader size="sm" aria-hidden />
      <Text ms="sm">{t('app.loading')}</Text>
    </Center>
  );
}

/** Codes of the API (R2) that have a sentence of their own; others show the API's message. */
const KNOWN: Record<string, MessageKey> = {
  forbidden: 'error.forbidden',
  rate_limited: 'error.rateLimited',
  insufficient_balance: 'error.insufficientFunds',
  no_bank_account: 'error.noBank',
  kyc_required: 'error.kyc',
  idempotency_mismatch: 'error.generic',
  bank_unavailable: 'error.bankDown',
  service_unavailable: 'error.bankDown',
  not_found: 'error.notFound',
  reauthentication_required: 'error.reauth',
  age_restricted: 'error.ageRestricted',
};

/** What went wrong in the user's language: a known code's sentence, else the API's message. */
export function useErrorText(): (error: unknown) => string {
  const { t, locale } = useI18n();
  return (error) => {
    if (!(error instanceof ApiError)) return t('error.network');
    const key = KNOWN[error.code];
    if (key) return t(key);
    return locale === 'en' && error.message ? error.message : t('error.generic');
  };
}

export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  const { t } = useI18n();
  const text = useErrorText();
  return (
    <Alert color="red" title={t('error.title')} role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{text(error)}</Text>
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
    <Center py="lg">
      <Text c="dimmed" ta="center">
        {children ?? t('app.empty')}
      </Text>
    </Center>
  );
}

/** A query's three states around its content. */
export function QueryView<T>({
  query,
  children,
}: {
  query: { isPending: boolean; error: unknown; data: T | undefined; refetch: () => unknown };
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (query.error || query.data === undefined) return <ErrorState error={query.error} retry={() => query.refetch()} />;
  return <>{children(query.data)}</>;
}
