import { DateInput, type DateInputProps } from '@mantine/dates';
import 'dayjs/locale/bs';
import 'dayjs/locale/hr';
import 'dayjs/locale/sr';
import type { AppLocale } from '@app/web-tools/format';
import { useI18n } from '../i18n/index.js';
import { parseTypedDate } from './period.js';

/** How a date field shows its date: as the app's text writes dates (formatDate), 20.11.2026 or 20/11/2026. */
const SHOWN: Record<AppLocale, string> = { sr: 'DD.MM.YYYY', bs: 'DD.MM.YYYY', hr: 'DD.MM.YYYY', en: 'DD/MM/YYYY' };

/**
 * Every date field of the app: month and day names in the app's language, the date shown as the
 * app's text shows it, and a date typed by hand understood (parseTypedDate: 5.12.2026, 5/12/2026 or
 * 2026-12-05; Mantine's own parser needs a dayjs plugin and took none of them).
 */
export function DateField(props: DateInputProps) {
  const { locale } = useI18n();
  return <DateInput locale={locale} valueFormat={SHOWN[locale]} dateParser={parseTypedDate} {...props} />;
}
