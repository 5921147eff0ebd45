import type { AppLocale } from '@app/web-tools/format';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { MessageKey } from './en.js';

export type { MessageKey };

type Catalog = Partial<Record<MessageKey, string>>;

/**
 * One chunk per language, loaded when first shown: the sign-in page carries one base catalog, not four
 * (its JavaScript budget, bench/web-bundle.ts). The screen areas' messages (areas/) come with the
 * signed-in frame, which asks for the full catalog of the language (full/<lang>.ts: base and areas).
 */
const LOADERS: Record<AppLocale, () => Promise<Catalog>> = {
  en: () => import('./en.js').then((m) => m.en),
  sr: () => import('./sr.js').then((m) => m.sr),
  bs: () => import('./bs.js').then((m) => m.bs),
  hr: () => import('./hr.js').then((m) => m.hr),
};
const FULL_LOADERS: Record<AppLocale, () => Promise<Catalog>> = {
  en: () => import('./full/en.js').then((m) => m.enFull),
  sr: () => import('./full/sr.js').then((m) => m.srFull),
  bs: () => import('./full/bs.js').then((m) => m.bsFull),
  hr: () => import('./full/hr.js').then((m) => m.hrFull),
};
const pending = new Map<string, Promise<Catalog>>();

export function loadCatalog(locale: AppLocale, full = false): Promise<Catalog> {
  const key = `${locale}${full ? ':full' : ''}`;
  let p = pending.get(key);
  if (!p) {
    p = (full ? FULL_LOADERS : LOADERS)[locale]();
    pending.set(key, p);
  }
  return p;
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
  /** The signed-in frame's call: load the screen areas' messages too (areasReady once they are shown). */
  requireAreas(): void;
  areasReady: boolean;
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
  const [full, setFull] = useState(false);
  const [shown, setShown] = useState<{ locale: AppLocale; catalog: Catalog; full: boolean } | null>(null);
  useEffect(() => {
    let live = true;
    loadCatalog(locale, full).then((catalog) => live && setShown({ locale, catalog, full }));
    return () => {
      live = false;
    };
  }, [locale, full]);
  const requireAreas = useCallback(() => setFull(true), []);
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
        requireAreas,
        areasReady: shown.full,
        t: (k, p) => translate(shown.catalog, k, p),
      },
    [shown, chosen, setLocale, followOrganization, requireAreas],
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
