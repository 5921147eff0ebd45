import { Button, NativeSelect, Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { api, type paths, unwrap } from '../api/client.js';
import { useAuth } from '../auth.js';
import { useI18n } from '../i18n/index.js';
import { LanguageSwitch } from '../ui/LanguageSwitch.js';
import { ErrorState, QueryView } from '../ui/states.js';

type SettingsBody = NonNullable<paths['/api/settings']['patch']['requestBody']>['content']['application/json'];
type Values = Required<SettingsBody>;

const CURRENCIES: Values['currency'][] = ['NOK', 'EUR', 'USD', 'GBP', 'CHF', 'PLN', 'RSD', 'BAM', 'TRY', 'PKR'];
const LANGUAGES: Values['language'][] = ['nb', 'en', 'bs', 'sq'];
const LANGUAGE_NAMES: Record<Values['language'], string> = {
  nb: 'Norsk bokmål',
  en: 'English',
  bs: 'Bosanski',
  sq: 'Shqip',
};

/** The service's whitelisted settings (display currency, notification language, push and e-mail). */
export default function Settings() {
  const { t } = useI18n();
  const { me } = useAuth();
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: async () => unwrap(await api.GET('/api/settings')).data,
  });
  const form = useForm<Values>();
  useEffect(() => {
    if (settings.data) form.reset(settings.data);
  }, [settings.data, form]);
  const save = useMutation({
    mutationFn: async (v: Values) => unwrap(await api.PATCH('/api/settings', { body: v })).data,
    onSuccess: (d) => queryClient.setQueryData(['settings'], d),
  });
  return (
    <Stack gap="md" maw={520}>
      <Title order={1} size="h2">
        {t('nav.settings')}
      </Title>
      <div>
        <Text fw={600} size="sm" mb={4}>
          {t('app.language')}
        </Text>
        <LanguageSwitch />
      </div>
      {me ? (
        <Text size="sm">
          {t('settings.identity', { name: `${me.firstName} ${me.lastName}` })}{' '}
          {t(
            me.kycStatus === 'approved' ? 'kyc.verified' : me.kycStatus === 'rejected' ? 'kyc.rejected' : 'kyc.pending',
          )}
        </Text>
      ) : null}
      <QueryView query={settings}>
        {() => (
          <form onSubmit={form.handleSubmit((v) => save.mutate(v))}>
            <Stack gap="sm">
              <NativeSelect
                label={t('settings.currency')}
                data={CURRENCIES.map((c) => ({ value: c, label: c }))}
                {...form.register('currency')}
              />
              <NativeSelect
                label={t('settings.notificationLanguage')}
                data={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
                {...form.register('language')}
              />
              <Switch label={t('settings.push')} {...form.register('pushEnabled')} />
              <Switch label={t('settings.email')} {...form.register('emailEnabled')} />
              {save.error ? <ErrorState error={save.error} /> : null}
              {save.isSuccess && !form.formState.isDirty ? (
                <Text size="sm" role="status">
                  {t('settings.saved')}
                </Text>
              ) : null}
              <Button type="submit" loading={save.isPending}>
                {t('app.save')}
              </Button>
            </Stack>
          </form>
        )}
      </QueryView>
    </Stack>
  );
}
