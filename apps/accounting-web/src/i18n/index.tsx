import type { AppLocale } from '@app/web-tools/format';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import type { moneyEn } from './areas/money.en.js';
import { bs } from './bs.js';
import { type MessageKey as BaseKey, en } from './en.js';
import { hr } from './hr.js';
import { sr } from './sr.js';

/**
 * Every key: the base catalogs' (en.ts, sr.ts, ...) and those of the screen areas in ./areas/, whose
 * messages are added by `addMessages` when their screens load (one line per area here).
 */
export type MessageKey = BaseKey | keyof typeof moneyEn;
export const CATALOGS: Record<AppLocale, Record<string, string>> = {
  en: { ...en },
  sr: { ...sr },
  bs: { ...bs },
  hr: { ...hr },
};

/** Adds a screen area's messages (src/i18n/areas/<area>.ts), loaded with its screens rather than at start. */
export function addMessages(area: Record<AppLocale, Record<string, string>>): void {
  for (const locale of Object.keys(CATALOGS) as AppLocale[]) Object.assign(CATALOGS[locale], area[locale]);
}
export const LOCALES: readonly AppLocale[] = ['sr', 'bs', 'hr', 'en'];
export const LOCALE_NAMES: Record<AppLocale, string> = { sr: 'Srpski', bs: 'Bosanski', hr: 'Hrvatski', en: 'English' };

const STORAGE_KEY = 'ledgerline.locale';

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

interface I18n {
  locale: AppLocale;
  /** A choice made with the switch; null follows the organization's language. */
  chosen: AppLocale | null;
  setLocale(locale: AppLocale): void;
  /** The organization's language, followed unless the user picked another. */
  followOrganization(language: string | undefined): void;
  t: Translate;
}

const I18nContext = createContext<I18n | null>(null);

function isLocale(v: unknown): v is AppLocale {
  return typeof v === 'string' && (LOCALES as readonly string[]).includes(v);
}

function initialChoice(): AppLocale | null {
  try {
    const v = localStorage.getItem(STORAGE_KEY);
    return isLocale(v) ? v : null;
  } catch {
    return null;
  }
}

export function translate(locale: AppLocale, key: MessageKey, params?: Record<string, string | number>): string {
  const text = CATALOGS[locale][key] ?? CATALOGS.en[key] ?? key;
  return params ? text.replace(/\{(\w+)\}/g, (m, name: string) => String(params[name] ?? m)) : text;
}

export function I18nProvider({ children }: { children: ReactNode }) {
  const [chosen, setChosen] = useState<AppLocale | null>(initialChoice);
  const [orgLocale, setOrgLocale] = useState<AppLocale>('sr');
  const locale = chosen ?? orgLocale;
  const setLocale = useCallback((l: AppLocale) => {
    setChosen(l);
    try {
      localStorage.setItem(STORAGE_KEY, l);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
    document.documentElement.lang = l === 'sr' ? 'sr-Latn' : l;
  }, []);
  const followOrganization = useCallback((language: string | undefined) => {
    if (isLocale(language)) setOrgLocale(language);
  }, []);
  const value = useMemo<I18n>(
    () => ({ locale, chosen, setLocale, followOrganization, t: (k, p) => translate(locale, k, p) }),
    [locale, chosen, setLocale, followOrganization],
  );
  document.documentElement.lang = locale === 'sr' ? 'sr-Latn' : locale;
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const ctx = useContext(I18nContext);
  if (!ctx) throw new Error('useI18n outside I18nProvider');
  return ctx;
}
