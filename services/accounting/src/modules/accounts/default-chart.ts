type ChartLanguage = 'sr' | 'bs' | 'hr' | 'en';

/**
 * The chart of accounts every organization starts with (A7): code, account type id and the name in
 * each organization language (sr, bs and hr in Latin script). The codes never change; the name is
 * chosen once, at registration, from the organization's language (D-PDF2): an organization created
 * before the names were localized keeps the English names it got, which its users may rename.
 */
const CHART: ReadonlyArray<readonly [code: string, typeId: 1 | 2 | 3 | 4 | 5, names: Record<ChartLanguage, string>]> = [
  ['1000', 1, { en: 'Cash', sr: 'Blagajna', bs: 'Blagajna', hr: 'Blagajna' }],
  ['1100', 1, { en: 'Bank', sr: 'Tekući račun', bs: 'Transakcijski račun', hr: 'Žiro-račun' }],
  [
    '1200',
    1,
    {
      en: 'Accounts Receivable',
      sr: 'Potraživanja od kupaca',
      bs: 'Potraživanja od kupaca',
      hr: 'Potraživanja od kupaca',
    },
  ],
  ['1300', 1, { en: 'VAT Receivable', sr: 'Prethodni PDV', bs: 'Ulazni PDV', hr: 'Pretporez' }],
  ['1500', 1, { en: 'Equipment', sr: 'Oprema', bs: 'Oprema', hr: 'Oprema' }],
  [
    '2110',
    2,
    {
      en: 'Accounts Payable',
      sr: 'Obaveze prema dobavljačima',
      bs: 'Obaveze prema dobavljačima',
      hr: 'Obveze prema dobavljačima',
    },
  ],
  ['2300', 2, { en: 'VAT Payable', sr: 'Obaveze za PDV', bs: 'Obaveze za PDV', hr: 'Obveze za PDV' }],
  ['2500', 2, { en: 'Long-term Loans', sr: 'Dugoročni krediti', bs: 'Dugoročni krediti', hr: 'Dugoročni krediti' }],
  ['3000', 3, { en: "Owner's Equity", sr: 'Osnovni kapital', bs: 'Osnovni kapital', hr: 'Temeljni kapital' }],
  ['3100', 3, { en: 'Retained Earnings', sr: 'Neraspoređena dobit', bs: 'Neraspoređena dobit', hr: 'Zadržana dobit' }],
  ['4000', 4, { en: 'Sales Revenue', sr: 'Prihodi od prodaje', bs: 'Prihodi od prodaje', hr: 'Prihodi od prodaje' }],
  ['4900', 4, { en: 'Other Income', sr: 'Ostali prihodi', bs: 'Ostali prihodi', hr: 'Ostali prihodi' }],
  ['5000', 5, { en: 'General Expenses', sr: 'Opšti troškovi', bs: 'Opći troškovi', hr: 'Opći troškovi' }],
  ['5100', 5, { en: 'Rent', sr: 'Zakup', bs: 'Zakupnina', hr: 'Najamnina' }],
  ['5200', 5, { en: 'Salaries', sr: 'Zarade', bs: 'Plaće', hr: 'Plaće' }],
  [
    '5300',
    5,
    { en: 'Office Supplies', sr: 'Kancelarijski materijal', bs: 'Kancelarijski materijal', hr: 'Uredski materijal' },
  ],
  ['5400', 5, { en: 'Travel', sr: 'Putni troškovi', bs: 'Putni troškovi', hr: 'Putni troškovi' }],
];

/** The default chart in the given language (an unknown language gets the English names). */
export function defaultChart(
  language: string,
): ReadonlyArray<readonly [code: string, name: string, typeId: 1 | 2 | 3 | 4 | 5]> {
  const lang = (['sr', 'bs', 'hr'].includes(language) ? language : 'en') as ChartLanguage;
  return CHART.map(([code, typeId, names]) => [code, names[lang], typeId] as const);
}

/**
 * The accounts of the default chart that invoice and expense postings find by their code: such an
 * account can be renamed or moved, not deleted.
 */
export const SYSTEM_ACCOUNTS = {
  bank: '1100',
  receivable: '1200',
  vatReceivable: '1300',
  payable: '2110',
  vatPayable: '2300',
  sales: '4000',
  generalExpenses: '5000',
} as const;

export const SYSTEM_ACCOUNT_CODES: ReadonlySet<string> = new Set(Object.values(SYSTEM_ACCOUNTS));
