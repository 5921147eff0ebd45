import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { MessageKey } from './en.js';
import type { Locale } from './locales.js';

export type { Locale, MessageKey };

type Catalog = Record<MessageKey, string>;
/**
 * One chunk per language, loaded when chosen: a visitor downloads the one catalog they read
 * (the sign-in page's JavaScript budget has no room for six).
 */
export const CATALOG_LOADERS: Record<Locale, () => Promise<Catalog>> = {
  nb: () => import('./nb.js').then((m) => m.nb),
  en: () => import('./en.js').then((m) => m.en),
  pl: () => import('./pl.js').then((m) => m.pl),
  tr: () => import('./tr.js').then((m) => m.tr),
  bs: () => import('./bs.js').then((m) => m.bs),
  ur: () => import('./ur.js').then((m) => m.ur),
};
export const LOCALES: readonly Locale[] = ['nb', 'en', 'pl', 'tr', 'bs', 'ur'];
export const LOCALE_NAMES: Record<Locale, string> = {
  nb: 'Norsk bokmål',
  en: 'English',
  pl: 'Polski',
  tr: 'Türkçe',
  bs: 'Bosanski',
  ur: 'اردو',
};
/** Urdu is written right to left: the page is laid out mirrored (dir="rtl"). */
export const RTL: ReadonlySet<Locale> = new Set(['ur']);
/** BCP 47 tags for the html element (Bosnian in Latin script). */
const LANG_TAG: Record<Locale, string> = { nb: 'nb', en: 'en', pl: 'pl', tr: 'tr', bs: 'bs-Latn', ur: 'ur' };

const STORAGE_KEY = 'ledgerline.remit.locale';

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

interface I18n {
  locale: Locale;
  setLocale(locale: Locale): void;
  t: Translate;
}

const I18nContext = createContext<I18n | null>(null);

export function isLocale(v: unknown): v is Locale {
  return typeof v === 'string' && (LOCALES as readonly string[]).includes(v);
}

/** The stored choice, else the browser's first language we have, else Norwegian. */
function initialLocale(): Locale {
  try {
    const v = localStorage.getItem(STORAGE_KEY);
    if (isLocale(v)) return v;
  } catch {
    // Private mode: no stored choice.
  }
  for (const tag of globalThis.navigator?.languages ?? []) {
    const base = tag.toLowerCase().split('-')[0];
    const mapped = base === 'no' || base === 'nn' ? 'nb' : base === 'sr' || base === 'hr' ? 'bs' : base;
    if (isLocale(mapped)) return mapped;
  }
  return 'nb';
}

export function translate(catalog: Catalog, key: MessageKey, params?: Record<string, string | number>): string {
  const text = catalog[key] ?? key;
  return params ? text.replace(/\{(\w+)\}/g, (m, name: string) => String(params[name] ?? m)) : text;
}

export function I18nProvider({ children }: { children: ReactNode }) {
  const [locale, setChosen] = useState<Locale>(initialLocale);
  const [catalog, setCatalog] = useState<{ locale: Locale; messages: Catalog } | null>(null);
  useEffect(() => {
    let current = true;
    CATALOG_LOADERS[locale]().then((messages) => current && setCatalog({ locale, messages }));
    return () => {
      current = false;
    };
  }, [locale]);
  const setLocale = useCallback((l: Locale) => {
    setChosen(l);
    try {
      localStorage.setItem(STORAGE_KEY, l);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
  }, []);
  useEffect(() => {
    if (!catalog) return;
    document.documentElement.lang = LANG_TAG[catalog.locale];
    document.documentElement.dir = RTL.has(catalog.locale) ? 'rtl' : 'ltr';
  }, [catalog]);
  // Until the new language's catalog arrives the page keeps the previous one (on the first load: nothing).
  const value = useMemo<I18n | null>(
    () => (catalog ? { locale: catalog.locale, setLocale, t: (k, p) => translate(catalog.messages, k, p) } : null),
    [catalog, setLocale],
  );
  if (!value) return null;
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const ctx = useContext(I18nContext);
  if (!ctx) throw new Error('useI18n outside I18nProvider');
  return ctx;
}
