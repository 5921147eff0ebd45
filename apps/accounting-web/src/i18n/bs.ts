import type { BaseKey } from './en.js';
import { sr } from './sr.js';

/** Bosnian (Latin): the Serbian catalog with the ijekavian and Bosnian wording where they differ. */
export const bs: Record<BaseKey, string> = {
  ...sr,
  'app.edit': 'Izmijeni',
  'app.next': 'Sljedeća',
  'nav.settings': 'Postavke',
  'settings.iban': 'Transakcijski račun (IBAN)',
  'auth.signInTitle': 'Prijavite se u svoje poslovne knjige',
  'auth.registerLink': 'Registrujte organizaciju',
  'dash.revenue': 'Prihodi ovog mjeseca',
  'dash.expenses': 'Rashodi ovog mjeseca',
  'dash.profit': 'Dobit ovog mjeseca',
  'dash.chart': 'Dobit, posljednjih 12 mjeseci',
  'dash.current': 'Nije dospjelo',
  'dash.noExpenses': 'Nema rashoda ovog mjeseca.',
  'contacts.edit': 'Izmjena kontakta',
  'contacts.vatNumber': 'Porezni broj (PDV/JIB)',
  'contacts.registrationNumber': 'Identifikacijski broj',
  'contacts.city': 'Mjesto',
  'invoices.edit': 'Izmjena fakture',
  'invoices.copiedFrom':
    'Nova faktura s kupcem i stavkama fakture {number}. Datumi počinju od danas: provjerite ih prije spremanja.',
  'invoices.dueDate': 'Datum dospijeća',
  'invoices.unitPrice': 'Jedinična cijena',
  'invoices.publicLinkHelp': 'Kupac dobija javni link u e-poruci s fakturom.',
  'status.overdue': 'Dospjela',
  'app.invalidField': 'Vrijednost nije ispravna.',
};
