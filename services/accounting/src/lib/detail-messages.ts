import type { Language } from './catalog.js';

type Local = Record<Exclude<Language, 'en'>, string>;

/**
 * Error detail messages in the organization's language (A18, issue 25 item 6); the field keys stay
 * English. Exact messages first, then the validator's messages with their variable part. A
 * message not listed here is sent in English.
 */
const EXACT: Record<string, Local> = {
  'is required': { sr: 'je obavezno', bs: 'je obavezno', hr: 'je obavezno' },
  'must not be blank': { sr: 'ne sme biti prazno', bs: 'ne smije biti prazno', hr: 'ne smije biti prazno' },
  'must be string': { sr: 'mora biti tekst', bs: 'mora biti tekst', hr: 'mora biti tekst' },
  'must be number': { sr: 'mora biti broj', bs: 'mora biti broj', hr: 'mora biti broj' },
  'must be integer': { sr: 'mora biti ceo broj', bs: 'mora biti cijeli broj', hr: 'mora biti cijeli broj' },
  'must be boolean': { sr: 'mora biti true ili false', bs: 'mora biti true ili false', hr: 'mora biti true ili false' },
  'must be object': { sr: 'mora biti objekat', bs: 'mora biti objekat', hr: 'mora biti objekt' },
  'must be array': { sr: 'mora biti niz', bs: 'mora biti niz', hr: 'mora biti niz' },
  'must be at most 1 MiB': {
    sr: 'sme imati najviše 1 MiB',
    bs: 'smije imati najviše 1 MiB',
    hr: 'smije imati najviše 1 MiB',
  },
  'must be at most 5 MB': {
    sr: 'sme imati najviše 5 MB',
    bs: 'smije imati najviše 5 MB',
    hr: 'smije imati najviše 5 MB',
  },
  'must be at most 10 MB': {
    sr: 'sme imati najviše 10 MB',
    bs: 'smije imati najviše 10 MB',
    hr: 'smije imati najviše 10 MB',
  },
  'is empty': { sr: 'je prazno', bs: 'je prazno', hr: 'je prazno' },
  'is already used': { sr: 'je već u upotrebi', bs: 'je već u upotrebi', hr: 'je već u upotrebi' },
  'account not found': { sr: 'konto nije pronađen', bs: 'konto nije pronađen', hr: 'konto nije pronađen' },
  'account is inactive': { sr: 'konto nije aktivan', bs: 'konto nije aktivan', hr: 'konto nije aktivan' },
  'must not be after toDate': {
    sr: 'ne sme biti posle toDate',
    bs: 'ne smije biti nakon toDate',
    hr: 'ne smije biti nakon toDate',
  },
  'is required for mark-paid': {
    sr: 'je obavezno za mark-paid',
    bs: 'je obavezno za mark-paid',
    hr: 'je obavezno za mark-paid',
  },
  'a CSV file is required': {
    sr: 'potrebna je CSV datoteka',
    bs: 'potrebna je CSV datoteka',
    hr: 'potrebna je CSV datoteka',
  },
  'must be a file, not a text field': {
    sr: 'mora biti datoteka, ne tekstualno polje',
    bs: 'mora biti datoteka, ne tekstualno polje',
    hr: 'mora biti datoteka, ne tekstualno polje',
  },
  'only one file may be sent': {
    sr: 'sme se poslati samo jedna datoteka',
    bs: 'smije se poslati samo jedna datoteka',
    hr: 'smije se poslati samo jedna datoteka',
  },
};

const PATTERNS: Array<[RegExp, (m: RegExpExecArray) => Local]> = [
  [
    /^must be one of: (.+)$/,
    (m) => ({
      sr: `mora biti jedno od: ${m[1]}`,
      bs: `mora biti jedno od: ${m[1]}`,
      hr: `mora biti jedno od: ${m[1]}`,
    }),
  ],
  [
    /^must not have more than (\d+) characters$/,
    (m) => ({
      sr: `sme imati najviše ${m[1]} znakova`,
      bs: `smije imati najviše ${m[1]} znakova`,
      hr: `smije imati najviše ${m[1]} znakova`,
    }),
  ],
  [
    /^must not have fewer than (\d+) characters$/,
    (m) => ({
      sr: `mora imati najmanje ${m[1]} znakova`,
      bs: `mora imati najmanje ${m[1]} znakova`,
      hr: `mora imati najmanje ${m[1]} znakova`,
    }),
  ],
  [
    /^must match format "(.+)"$/,
    (m) => ({
      sr: `mora biti u formatu ${m[1]}`,
      bs: `mora biti u formatu ${m[1]}`,
      hr: `mora biti u formatu ${m[1]}`,
    }),
  ],
  [
    /^must match pattern "(.+)"$/,
    (m) => ({
      sr: `mora odgovarati obrascu ${m[1]}`,
      bs: `mora odgovarati obrascu ${m[1]}`,
      hr: `mora odgovarati uzorku ${m[1]}`,
    }),
  ],
  [
    /^must be >= (.+)$/,
    (m) => ({ sr: `mora biti >= ${m[1]}`, bs: `mora biti >= ${m[1]}`, hr: `mora biti >= ${m[1]}` }),
  ],
  [
    /^must be <= (.+)$/,
    (m) => ({ sr: `mora biti <= ${m[1]}`, bs: `mora biti <= ${m[1]}`, hr: `mora biti <= ${m[1]}` }),
  ],
  [
    /^malformed multipart body: (.+)$/,
    (m) => ({
      sr: `neispravno multipart telo: ${m[1]}`,
      bs: `neispravno multipart tijelo: ${m[1]}`,
      hr: `neispravno multipart tijelo: ${m[1]}`,
    }),
  ],
];

export function localizeDetail(message: string, lang: Language): string {
  if (lang === 'en') return message;
  const exact = EXACT[message];
  if (exact) return exact[lang];
  for (const [re, local] of PATTERNS) {
    const m = re.exec(message);
    if (m) return local(m)[lang];
  }
  return message;
}

/** The details with every message in the request's language, field keys unchanged. */
export function localizeDetails(details: Record<string, string[]>, lang: Language): Record<string, string[]> {
  if (lang === 'en') return details;
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(details)) {
    out[field] = Array.isArray(messages) ? messages.map((m) => localizeDetail(m, lang)) : messages;
  }
  return out;
}
