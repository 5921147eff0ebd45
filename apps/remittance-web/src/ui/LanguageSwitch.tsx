import { NativeSelect } from '@mantine/core';
import { isLocale, LOCALE_NAMES, LOCALES, useI18n } from '../i18n/index.js';

export function LanguageSwitch() {
  const { locale, setLocale, t } = useI18n();
  return (
    <NativeSelect
      size="xs"
      aria-label={t('app.language')}
      value={locale}
      data={LOCALES.map((l) => ({ value: l, label: LOCALE_NAMES[l] }))}
      onChange={(e) => isLocale(e.currentTarget.value) && setLocale(e.currentTarget.value)}
      w={130}
    />
  );
}
