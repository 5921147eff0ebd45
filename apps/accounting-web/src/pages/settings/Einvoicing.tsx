import {
  Alert,
  Button,
  Code,
  FileInput,
  Group,
  NativeSelect,
  Paper,
  PasswordInput,
  Radio,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { api, unwrap } from '../../api/client.js';
import type { paths } from '../../api/schema.generated.js';
import { useAuth } from '../../auth.js';
import { useI18n } from '../../i18n/index.js';
import { useFormat } from '../../ui/format.js';
import { Empty, ErrorState, Loading, useFieldErrors } from '../../ui/states.js';
import { ActionError } from '../einvoice/ActionError.js';
import { useDateTime } from '../einvoice/SefBadge.js';

type SefSettings = paths['/api/v1/organization/sef']['get']['responses'][200]['content']['application/json'];
type FiscSettings = paths['/api/v1/organization/fiscalization']['get']['responses'][200]['content']['application/json'];
type IntermediarySettings =
  paths['/api/v1/organization/intermediary']['get']['responses'][200]['content']['application/json'];

/**
 * Settings, E-invoicing: SEF (Serbia: API key, environment, on/off; owners and admins change them) or,
 * for Croatia, fiscalization (the PKCS#12 certificate and its password; the owner uploads) and the
 * information intermediary (Moj-eRačun account; owners and admins) with the recipient look-up by OIB.
 * Everyone else reads.
 */
export default function Einvoicing() {
  const { me } = useAuth();
  const { t } = useI18n();
  const country = me?.organization.country;
  if (country === 'RS') return <SefSettingsForm />;
  if (country === 'HR')
    return (
      <Stack>
        <FiscalizationForm />
        <IntermediaryForm />
      </Stack>
    );
  return <Empty>{t('einvoice.settings.notAvailable')}</Empty>;
}

interface SefForm {
  apiKey: string;
  environment: 'demo' | 'production';
  enabled: boolean;
}

function SefSettingsForm() {
  const { t } = useI18n();
  const query = useQuery({
    queryKey: ['sef-settings'],
    queryFn: async () => unwrap(await api.GET('/api/v1/organization/sef')),
  });
  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorState error={query.error} retry={() => query.refetch()} />;
  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={2} size="h4">
          {t('einvoice.settings.sefTitle')}
        </Title>
        <Text size="sm">{t('einvoice.settings.sefIntro')}</Text>
        <SefEditor settings={query.data} />
      </Stack>
    </Paper>
  );
}

function SefEditor({ settings }: { settings: SefSettings }) {
  const { t } = useI18n();
  const dateTime = useDateTime();
  const { isAdmin } = useAuth();
  const queryClient = useQueryClient();
  const [savedNotice, setSavedNotice] = useState(false);
  const form = useForm<SefForm>({
    defaultValues: { apiKey: '', environment: settings.environment, enabled: settings.enabled },
  });
  const save = useMutation({
    mutationFn: async (v: SefForm) =>
      unwrap(
        await api.PUT('/api/v1/organization/sef', {
          body: {
            environment: v.environment,
            enabled: v.enabled,
            ...(v.apiKey.trim() ? { apiKey: v.apiKey.trim() } : {}),
          },
        }),
      ),
    onMutate: () => setSavedNotice(false),
    onSuccess: (data) => {
      queryClient.setQueryData(['sef-settings'], data);
      form.reset({ apiKey: '', environment: data.environment, enabled: data.enabled });
      setSavedNotice(true);
    },
  });
  const errors = useFieldErrors(save.error);
  const envLabel = (e: 'demo' | 'production') =>
    e === 'demo' ? t('einvoice.settings.demo') : t('einvoice.settings.production');
  // The key's state is the key field's description for those who change it.
  const status = (
    <Stack gap={4}>
      {isAdmin ? null : (
        <Text size="sm">
          <strong>{t('einvoice.settings.apiKey')}:</strong>{' '}
          {settings.apiKeySet ? t('einvoice.settings.apiKeyStored') : t('einvoice.settings.apiKeyNone')}
        </Text>
      )}
      <Text size="sm">
        <strong>{t('einvoice.settings.lastSync')}:</strong>{' '}
        {settings.lastSyncAt ? dateTime(settings.lastSyncAt) : t('einvoice.settings.never')}
      </Text>
      {settings.webhookUrl ? (
        <Stack gap={2}>
          <Text size="sm" fw={700}>
            {t('einvoice.settings.webhook')}
          </Text>
          <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {settings.webhookUrl}
          </Code>
          <Text size="xs" c="dimmed">
            {t('einvoice.settings.webhookHelp')}
          </Text>
        </Stack>
      ) : null}
    </Stack>
  );
  if (!isAdmin)
    return (
      <Stack>
        <Text size="sm" mb={-12}>
          <strong>{t('einvoice.settings.environment')}:</strong> {envLabel(settings.environment)}
        </Text>
        <Text size="sm" mb={-12}>
          <strong>{t('einvoice.settings.enabled')}:</strong> {settings.enabled ? '✓' : '—'}
        </Text>
        {status}
        <Alert color="gray" p="xs">
          <Text size="sm">{t('einvoice.settings.readOnly')}</Text>
        </Alert>
      </Stack>
    );
  return (
    <form onSubmit={form.handleSubmit((v) => save.mutate(v))} noValidate>
      <Stack>
        {status}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <PasswordInput
            label={t('einvoice.settings.apiKey')}
            description={settings.apiKeySet ? t('einvoice.settings.apiKeySet') : t('einvoice.settings.apiKeyNone')}
            autoComplete="new-password"
            error={errors.apiKey}
            {...form.register('apiKey')}
          />
          <Controller
            control={form.control}
            name="environment"
            render={({ field }) => (
              <NativeSelect
                label={t('einvoice.settings.environment')}
                data={(['demo', 'production'] as const).map((e) => ({ value: e, label: envLabel(e) }))}
                value={field.value}
                onChange={(e) => field.onChange(e.currentTarget.value)}
                error={errors.environment}
              />
            )}
          />
        </SimpleGrid>
        <Controller
          control={form.control}
          name="enabled"
          render={({ field }) => (
            <Switch
              label={t('einvoice.settings.enabled')}
              description={t('einvoice.settings.enabledHelp')}
              checked={field.value}
              onChange={(e) => field.onChange(e.currentTarget.checked)}
            />
          )}
        />
        {save.error ? <ActionError error={save.error} /> : null}
        {savedNotice ? (
          <Alert color="teal" role="status" p="xs">
            {t('einvoice.settings.saved')}
          </Alert>
        ) : null}
        <Group>
          <Button type="submit" loading={save.isPending}>
            {t('app.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The file's bytes in base64 (the API takes the PKCS#12 as a base64 string). */
async function base64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

interface FiscForm {
  file: File | null;
  password: string;
  environment: 'test' | 'production';
  enabled: boolean;
}

function FiscalizationForm() {
  const { t } = useI18n();
  const query = useQuery({
    queryKey: ['fiscalization-settings'],
    queryFn: async () => unwrap(await api.GET('/api/v1/organization/fiscalization')),
  });
  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorState error={query.error} retry={() => query.refetch()} />;
  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={2} size="h4">
          {t('einvoice.settings.fiscTitle')}
        </Title>
        <Text size="sm">{t('einvoice.settings.fiscIntro')}</Text>
        <FiscEditor settings={query.data} />
      </Stack>
    </Paper>
  );
}

function FiscEditor({ settings }: { settings: FiscSettings }) {
  const { t } = useI18n();
  const f = useFormat();
  const { me } = useAuth();
  const queryClient = useQueryClient();
  const [savedNotice, setSavedNotice] = useState(false);
  const [touched, setTouched] = useState(false);
  const form = useForm<FiscForm>({
    defaultValues: { file: null, password: '', environment: settings.environment, enabled: settings.enabled },
  });
  const save = useMutation({
    mutationFn: async (v: FiscForm) =>
      unwrap(
        await api.PUT('/api/v1/organization/fiscalization', {
          body: {
            certificate: await base64(v.file as File),
            password: v.password,
            environment: v.environment,
            enabled: v.enabled,
          },
        }),
      ),
    onMutate: () => setSavedNotice(false),
    onSuccess: (data) => {
      queryClient.setQueryData(['fiscalization-settings'], data);
      form.reset({ file: null, password: '', environment: data.environment, enabled: data.enabled });
      setTouched(false);
      setSavedNotice(true);
    },
  });
  const errors = useFieldErrors(save.error);
  const envLabel = (e: 'test' | 'production') =>
    e === 'test' ? t('einvoice.settings.test') : t('einvoice.settings.production');
  const file = form.watch('file');
  const status = (
    <Stack gap={4}>
      {settings.certificateSet ? (
        <>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            <strong>{t('einvoice.settings.certificateSubject')}:</strong> {settings.certificateSubject}
          </Text>
          {settings.certificateNotAfter ? (
            <Text size="sm">
              <strong>{t('einvoice.settings.certificateValid')}:</strong> {f.date(settings.certificateNotAfter)}
            </Text>
          ) : null}
        </>
      ) : (
        <Text size="sm">{t('einvoice.settings.noCertificate')}</Text>
      )}
      <Text size="sm">
        <strong>{t('einvoice.settings.environment')}:</strong> {envLabel(settings.environment)} ·{' '}
        <strong>{t('einvoice.settings.fiscEnabled')}:</strong> {settings.enabled ? '✓' : '—'}
      </Text>
    </Stack>
  );
  if (me?.role !== 'owner')
    return (
      <Stack>
        {status}
        <Alert color="gray" p="xs">
          <Text size="sm">{t('einvoice.settings.ownerOnly')}</Text>
        </Alert>
      </Stack>
    );
  return (
    <form
      noValidate
      onSubmit={form.handleSubmit((v) => {
        setTouched(true);
        if (v.file) save.mutate(v);
      })}
    >
      <Stack>
        {status}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Controller
            control={form.control}
            name="file"
            render={({ field }) => (
              <FileInput
                label={t('einvoice.settings.certificate')}
                placeholder={t('einvoice.settings.chooseFile')}
                // The placeholder is text on the page (not an attribute): dark enough for WCAG AA.
                styles={{ placeholder: { color: 'var(--mantine-color-gray-7)' } }}
                accept=".p12,.pfx,application/x-pkcs12"
                required
                clearable
                value={field.value}
                onChange={field.onChange}
                error={touched && !file ? t('app.invalidField') : errors.certificate}
              />
            )}
          />
          <PasswordInput
            label={t('einvoice.settings.password')}
            autoComplete="off"
            error={errors.password}
            {...form.register('password')}
          />
          <Controller
            control={form.control}
            name="environment"
            render={({ field }) => (
              <NativeSelect
                label={t('einvoice.settings.environment')}
                data={(['test', 'production'] as const).map((e) => ({ value: e, label: envLabel(e) }))}
                value={field.value}
                onChange={(e) => field.onChange(e.currentTarget.value)}
              />
            )}
          />
        </SimpleGrid>
        <Controller
          control={form.control}
          name="enabled"
          render={({ field }) => (
            <Switch
              label={t('einvoice.settings.fiscEnabled')}
              checked={field.value}
              onChange={(e) => field.onChange(e.currentTarget.checked)}
            />
          )}
        />
        {save.error ? <ActionError error={save.error} /> : null}
        {savedNotice ? (
          <Alert color="teal" role="status" p="xs">
            {t('einvoice.settings.saved')}
          </Alert>
        ) : null}
        <Group>
          <Button type="submit" loading={save.isPending}>
            {t('einvoice.settings.upload')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface IntermediaryFormValues {
  environment: 'demo' | 'production';
  enabled: boolean;
  username: string;
  password: string;
  companyBu: string;
  softwareId: string;
  fiscalizationBy: 'intermediary' | 'service';
}

function IntermediaryForm() {
  const { t } = useI18n();
  const query = useQuery({
    queryKey: ['intermediary-settings'],
    queryFn: async () => unwrap(await api.GET('/api/v1/organization/intermediary')),
  });
  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorState error={query.error} retry={() => query.refetch()} />;
  return (
    <Paper withBorder p="md" component="section" aria-label={t('einvoice.settings.intermediaryTitle')}>
      <Stack>
        <Title order={2} size="h4">
          {t('einvoice.settings.intermediaryTitle')}
        </Title>
        <Text size="sm">{t('einvoice.settings.intermediaryIntro')}</Text>
        <IntermediaryEditor settings={query.data} />
        <RecipientLookup ready={query.data.passwordSet && query.data.username != null} />
      </Stack>
    </Paper>
  );
}

/** The Moj-eRačun account: the password is write-only (empty field; left empty it keeps the stored one). */
function IntermediaryEditor({ settings }: { settings: IntermediarySettings }) {
  const { t } = useI18n();
  const dateTime = useDateTime();
  const { isAdmin } = useAuth();
  const queryClient = useQueryClient();
  const [savedNotice, setSavedNotice] = useState(false);
  const defaults = (s: IntermediarySettings): IntermediaryFormValues => ({
    environment: s.environment,
    enabled: s.enabled,
    username: s.username ?? '',
    password: '',
    companyBu: s.companyBu ?? '',
    softwareId: s.softwareId ?? '',
    fiscalizationBy: s.fiscalizationBy,
  });
  const form = useForm<IntermediaryFormValues>({ defaultValues: defaults(settings) });
  const save = useMutation({
    mutationFn: async (v: IntermediaryFormValues) =>
      unwrap(
        await api.PUT('/api/v1/organization/intermediary', {
          body: {
            environment: v.environment,
            enabled: v.enabled,
            username: v.username.trim(),
            softwareId: v.softwareId.trim(),
            companyBu: v.companyBu.trim() || null,
            fiscalizationBy: v.fiscalizationBy,
            ...(v.password ? { password: v.password } : {}),
          },
        }),
      ),
    onMutate: () => setSavedNotice(false),
    onSuccess: (data) => {
      queryClient.setQueryData(['intermediary-settings'], data);
      form.reset(defaults(data));
      setSavedNotice(true);
    },
  });
  const errors = useFieldErrors(save.error);
  const invalid = t('app.invalidField');
  const envLabel = (e: 'demo' | 'production') =>
    e === 'demo' ? t('einvoice.settings.demo') : t('einvoice.settings.production');
  const byLabel = (b: 'intermediary' | 'service') =>
    b === 'intermediary'
      ? t('einvoice.settings.fiscalizationByIntermediary')
      : t('einvoice.settings.fiscalizationByService');
  const lastSync = (
    <Text size="sm">
      <strong>{t('einvoice.settings.lastIntake')}:</strong>{' '}
      {settings.lastSyncAt ? dateTime(settings.lastSyncAt) : t('einvoice.settings.never')}
    </Text>
  );
  if (!isAdmin)
    return (
      <Stack gap={4}>
        <Text size="sm">
          <strong>{t('einvoice.settings.username')}:</strong> {settings.username ?? '—'}
        </Text>
        <Text size="sm">
          <strong>{t('einvoice.settings.intermediaryPassword')}:</strong>{' '}
          {settings.passwordSet ? t('einvoice.settings.passwordStored') : t('einvoice.settings.passwordNone')}
        </Text>
        <Text size="sm">
          <strong>{t('einvoice.settings.environment')}:</strong> {envLabel(settings.environment)} ·{' '}
          <strong>{t('einvoice.settings.intermediaryEnabled')}:</strong> {settings.enabled ? '✓' : '—'}
        </Text>
        <Text size="sm">
          <strong>{t('einvoice.settings.fiscalizationBy')}:</strong> {byLabel(settings.fiscalizationBy)}
        </Text>
        {lastSync}
        <Alert color="gray" p="xs" mt="xs">
          <Text size="sm">{t('einvoice.settings.readOnly')}</Text>
        </Alert>
      </Stack>
    );
  const { errors: formErrors } = form.formState;
  return (
    <form onSubmit={form.handleSubmit((v) => save.mutate(v))} noValidate>
      <Stack>
        {lastSync}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('einvoice.settings.username')}
            required
            autoComplete="off"
            maxLength={200}
            error={formErrors.username ? invalid : errors.username}
            {...form.register('username', { validate: (v) => v.trim() !== '' })}
          />
          <PasswordInput
            label={t('einvoice.settings.intermediaryPassword')}
            description={
              settings.passwordSet ? t('einvoice.settings.passwordSet') : t('einvoice.settings.passwordNone')
            }
            required={!settings.passwordSet}
            // The stored password's state under the field, so the field lines up with its neighbour.
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            autoComplete="new-password"
            maxLength={200}
            error={formErrors.password ? invalid : errors.password}
            {...form.register('password', { validate: (v) => settings.passwordSet || v !== '' })}
          />
          <TextInput
            label={t('einvoice.settings.softwareId')}
            required
            autoComplete="off"
            maxLength={100}
            error={formErrors.softwareId ? invalid : errors.softwareId}
            {...form.register('softwareId', { validate: (v) => v.trim() !== '' })}
          />
          <TextInput
            label={t('einvoice.settings.companyBu')}
            autoComplete="off"
            maxLength={100}
            error={errors.companyBu}
            {...form.register('companyBu')}
          />
          <Controller
            control={form.control}
            name="environment"
            render={({ field }) => (
              <NativeSelect
                label={t('einvoice.settings.environment')}
                data={(['demo', 'production'] as const).map((e) => ({ value: e, label: envLabel(e) }))}
                value={field.value}
                onChange={(e) => field.onChange(e.currentTarget.value)}
                error={errors.environment}
              />
            )}
          />
        </SimpleGrid>
        <Controller
          control={form.control}
          name="fiscalizationBy"
          render={({ field }) => (
            <Radio.Group
              label={t('einvoice.settings.fiscalizationBy')}
              description={t('einvoice.settings.fiscalizationByHelp')}
              value={field.value}
              onChange={(v) => field.onChange(v)}
              error={errors.fiscalizationBy}
            >
              <Stack gap="xs" mt="xs">
                {(['intermediary', 'service'] as const).map((b) => (
                  <Radio key={b} value={b} label={byLabel(b)} />
                ))}
              </Stack>
            </Radio.Group>
          )}
        />
        <Controller
          control={form.control}
          name="enabled"
          render={({ field }) => (
            <Switch
              label={t('einvoice.settings.intermediaryEnabled')}
              checked={field.value}
              onChange={(e) => field.onChange(e.currentTarget.checked)}
            />
          )}
        />
        {save.error ? <ActionError error={save.error} /> : null}
        {savedNotice ? (
          <Alert color="teal" role="status" p="xs">
            {t('einvoice.settings.saved')}
          </Alert>
        ) : null}
        <Group>
          <Button type="submit" loading={save.isPending}>
            {t('app.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** GET /organization/intermediary/recipient?oib=: whether a customer can receive e-invoices (any role). */
function RecipientLookup({ ready }: { ready: boolean }) {
  const { t } = useI18n();
  const [oib, setOib] = useState('');
  const [touched, setTouched] = useState(false);
  const valid = /^[0-9]{11}$/.test(oib);
  const lookup = useMutation({
    mutationFn: async (value: string) =>
      unwrap(await api.GET('/api/v1/organization/intermediary/recipient', { params: { query: { oib: value } } })),
  });
  return (
    <Stack gap="xs" component="section" aria-label={t('einvoice.lookup.title')} mt="sm">
      <Title order={3} size="h5">
        {t('einvoice.lookup.title')}
      </Title>
      {ready ? (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            setTouched(true);
            if (valid) lookup.mutate(oib);
          }}
        >
          <Group align="flex-end" gap="xs">
            <TextInput
              label={t('einvoice.lookup.oib')}
              description={t('einvoice.lookup.oibHelp')}
              inputMode="numeric"
              maxLength={11}
              value={oib}
              onChange={(e) => setOib(e.currentTarget.value.replace(/\s/g, ''))}
              error={touched && !valid ? t('app.invalidField') : undefined}
              style={{ flex: '1 1 12rem', maxWidth: '20rem' }}
            />
            <Button type="submit" variant="default" loading={lookup.isPending}>
              {t('einvoice.lookup.check')}
            </Button>
          </Group>
        </form>
      ) : (
        <Text size="sm">{t('einvoice.lookup.needsAccount')}</Text>
      )}
      {lookup.data && !lookup.isPending ? (
        <Alert color={lookup.data.registered ? 'teal' : 'orange'} role="status" p="xs" data-testid="recipient-answer">
          <Text size="sm">
            {t(lookup.data.registered ? 'einvoice.lookup.registered' : 'einvoice.lookup.notRegistered', {
              oib: lookup.data.oib,
            })}
          </Text>
        </Alert>
      ) : null}
      {lookup.error ? <ActionError error={lookup.error} /> : null}
    </Stack>
  );
}
