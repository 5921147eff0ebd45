import type { AppLocale } from '@app/web-tools/format';
import { Group, NativeSelect } from '@mantine/core';
import type { ReactNode } from 'react';
import { LOCALE_NAMES, LOCALES, useI18n } from '../i18n/index.js';

export function LanguageSwitch() {
  const { t, locale, setLocale } = useI18n();
  return (
    // A native select: no combobox code on the sign-in page (its JavaScript budget, bench/web-bundle.ts).
    <NativeSelect
      aria-label={t('app.language')}
      size="xs"
      w={120}
      data={LOCALES.map((l) => ({ value: l, label: LOCALE_NAMES[l] }))}
      value={locale}
      onChange={(e) => setLocale(e.currentTarget.value as AppLocale)}
    />
  );
}

/** The frame of the screens of a signed-out visitor. */
export function Centered({ children }: { children: ReactNode }) {
  return (
    <main style={{ maxWidth: 440, margin: '0 auto', padding: '48px 16px' }}>
      <Group justify="flex-end" mb="md">
        <LanguageSwitch />
      </Group>
      {children}
    </main>
  );
}
