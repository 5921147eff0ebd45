import type { NotificationType } from '../../db/types.js';

/** Notification texts in Norwegian (R13), one builder per trigger. */
const nok = new Intl.NumberFormat('nb-NO', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const day = new Intl.DateTimeFormat('nb-NO', { dateStyle: 'long', timeZone: 'Europe/Oslo' });
const money = (amount: string, currency: string) => `${nok.format(amount as unknown as number)} ${currency}`;

export interface NotificationText {
  type: NotificationType;
  title: string;
  body: string;
}

export const texts = {
  remittanceCompleted: (amount: string, currency: string, recipient: string): NotificationText => ({
    type: 'transaction_complete',
    title: 'Overføring fullført',
    body: `Overføringen på ${money(amount, currency)} til ${recipient} er fullført.`,
  }),
  remittanceFailed: (amount: string, currency: string, recipient: string, refunded: string): NotificationText => ({
    type: 'system',
    title: 'Overføring mislyktes',
    body: `Overføringen på ${money(amount, currency)} til ${recipient} kunne ikke gjennomføres. ${money(refunded, currency)} er ført tilbake til kontoen din.`,
  }),
  qrPaid: (amount: string, merchant: string): NotificationText => ({
    type: 'qr_payment',
    title: 'QR-betaling gjennomført',
    body: `Du betalte ${money(amount, 'NOK')} til ${merchant}.`,
  }),
  qrFailed: (amount: string, merchant: string, refunded: string): NotificationText => ({
    type: 'system',
    title: 'QR-betaling mislyktes',
    body: `Betalingen på ${money(amount, 'NOK')} til ${merchant} kunne ikke gjennomføres. ${money(refunded, 'NOK')} er ført tilbake til kontoen din.`,
  }),
  qrReceived: (amount: string, customer: string): NotificationText => ({
    type: 'qr_payment',
    title: 'Ny QR-betaling',
    body: `Du mottok ${money(amount, 'NOK')} fra ${customer}.`,
  }),
  consentExpiring: (bank: string | null, expiresAt: Date): NotificationText => ({
    type: 'security',
    title: 'Banksamtykket utløper snart',
    body: `Samtykket til ${bank ?? 'banken din'} utløper ${day.format(expiresAt)}. Forny det under Banker, så kontoene og betalingene dine fortsetter å virke.`,
  }),
  consentReauthorization: (bank: string | null): NotificationText => ({
    type: 'security',
    title: 'Banken trenger ny godkjenning',
    body: `${bank ?? 'Banken din'} godtar ikke lenger samtykket (det er utløpt eller trukket tilbake hos banken). Forny det under Banker for å se saldo og betale igjen.`,
  }),
};
