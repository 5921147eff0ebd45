/**
 * The descriptions of the postings the system makes (A8), in the organization's language (sr, bs
 * and hr in Latin script; any other language gets English). A posting keeps the text it was
 * written with; "Reversal: " before a reversed posting's text stays as the contract words it.
 */
export interface PostingTexts {
  invoice: (number: string) => string;
  invoiceVat: (number: string) => string;
  invoicePayment: (number: string) => string;
  expense: (number: string, category: string) => string;
  expenseVat: (number: string) => string;
  expensePayment: (number: string) => string;
}

const en: PostingTexts = {
  invoice: (n) => `Invoice ${n}`,
  invoiceVat: (n) => `Invoice ${n} VAT`,
  invoicePayment: (n) => `Payment of invoice ${n}`,
  expense: (n, c) => `Expense ${n}: ${c}`,
  expenseVat: (n) => `Expense ${n} VAT`,
  expensePayment: (n) => `Payment of expense ${n}`,
};

const sr: PostingTexts = {
  invoice: (n) => `Faktura ${n}`,
  invoiceVat: (n) => `PDV po fakturi ${n}`,
  invoicePayment: (n) => `Naplata fakture ${n}`,
  expense: (n, c) => `Trošak ${n}: ${c}`,
  expenseVat: (n) => `PDV po trošku ${n}`,
  expensePayment: (n) => `Plaćanje troška ${n}`,
};

const hr: PostingTexts = {
  ...sr,
  invoice: (n) => `Račun ${n}`,
  invoiceVat: (n) => `PDV po računu ${n}`,
  invoicePayment: (n) => `Naplata računa ${n}`,
};

const ALL: Record<string, PostingTexts> = { en, sr, bs: sr, hr };

export function postingTexts(language: string): PostingTexts {
  return ALL[language] ?? en;
}
