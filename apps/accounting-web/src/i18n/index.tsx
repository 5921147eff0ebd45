import type { AppLocale } from '@app/web-tools/format';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { MessageKey } from './en.js';

export type { MessageKey };

type Catalog = Record<MessageKey, string>;

/**
 * One chunk per language, loaded when first shown: the sign-in page carries one catalog, not four
 * (its JavaScript budget, bench/web-bundle.ts), and the screens' area catalogs (areas/) ride along.
 */
const LOADERS: Record<AppLocale, () => Promise<Catalog>> = {
  en: () => import('./en.js').then((m) => m.en),
  sr: () => import('./sr.js').then((m) => m.sr),
  bs: () => import('./bs.js').then((m) => m.bs),
  hr: () => import('./hr.js').then((m) => m.hr),
};
const CATALOGS: Partial<Record<AppLocale, Catalog>> = {};
const pending: Partial<Record<AppLocale, Promise<Catalog>>> = {};

export function loadCatalog(locale: AppLocale): Promise<Catalog> {
  pending[locale] ??= LOADERS[locale]().then((c) => {
    CATALOGS[locale] = c;
    return c;
  });
  return pending[locale];
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

function translate(catalog: Catalog, key: MessageKey, params?: Record<string, string | number>): string {
  const text = catalog[key] ?? key;
  return params ? text.replace(/\{(\w+)\}/g, (m, name: string) => String(params[name] ?? m)) : text;
}

export function I18nProvider({ children }: { children: ReactNode }) {
  const [chosen, setChosen] = useState<AppLocale | null>(initialChoice);
  const [orgLocale, setOrgLocale] = useState<AppLocale>('sr');
  const locale = chosen ?? orgLocale;
  // The catalog on screen: the previous language's stays until the chosen one has arrived.
  const [shown, setShown] = useState<{ locale: AppLocale; catalog: Catalog } | null>(() =>
    CATALOGS[locale] ? { locale, catalog: CATALOGS[locale] } : null,
  );
  useEffect(() => {
    let live = true;
    loadCatalog(locale).then((catalog) => live && setShown({ locale, catalog }));
    return () => {
      live = false;
    };
  }, [locale]);
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
  const value = useMemo<I18n | null>(
    () =>
      shown && {
        locale: shown.locale,
        chosen,
        setLocale,
        followOrganization,
        t: (k, p) => translate(shown.catalog, k, p),
      },
    [shown, chosen, setLocale, followOrganization],
  );
  if (!value) return null;
  document.documentElement.lang = value.locale === 'sr' ? 'sr-Latn' : value.locale;
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const ctx = useContext(I18nContext);
  if (!ctx) throw new Error('useI18n outside I18nProvider');
  return ctx;
}

// The first language is fetched while the rest of the app starts.
loadCatalog(initialChoice() ?? 'sr');
