import type { Database } from '@app/shared/db/database';
import type { Config } from './config.js';
import type { DB } from './db/schema.js';
import type { Surface } from './lib/tokens.js';
import type { SessionService } from './modules/auth/sessions.service.js';
import type { EidService } from './modules/auth-eid/eid.service.js';
import type { CardsService } from './modules/cards/cards.service.js';
import type { DataRightsService } from './modules/gdpr/data-rights.service.js';
import type { GdprService } from './modules/gdpr/gdpr.service.js';
import type { MerchantsService } from './modules/merchants/merchants.service.js';
import type { OpenBankingService } from './modules/open-banking/open-banking.service.js';
import type { PaymentsService } from './modules/payments/payments.service.js';
import type { RatesService } from './modules/rates/rates.service.js';
import type { RecipientsService } from './modules/recipients/recipients.service.js';
import type { TransactionsService } from './modules/transactions/transactions.service.js';

/** Everything route modules need, built once in app.ts. */
export interface AppContext {
  config: Readonly<Config>;
  db: Database<DB>;
  sessions: SessionService;
  eid: EidService;
  openBanking: OpenBankingService;
  rates: RatesService;
  gdpr: GdprService;
  recipients: RecipientsService;
  payments: PaymentsService;
  transactions: TransactionsService;
  merchants: MerchantsService;
  dataRights: DataRightsService;
  cards: CardsService;
  /** The sandbox bank's consent page (OPEN_BANKING_PROVIDER=sandbox only). */
  sandbox: { authorize(externalConsentId: string, approve: boolean): Promise<string | null> } | null;
}

export interface SurfaceOptions {
  surface: Surface;
  ctx: AppContext;
}

/** Per-IP limits of R15 (the plugin's default is 100/min). */
export const LIMIT_AUTH = { rateLimit: { max: 10, timeWindow: 60_000 } };
/** Remittance and QR payment: 10/min per IP (spec Limits). */
export const LIMIT_PAYMENTS = { rateLimit: { max: 10, timeWindow: 60_000 } };
export const LIMIT_RATES = { rateLimit: { max: 120, timeWindow: 60_000 } };

export function clientInfo(req: { ip: string; headers: Record<string, string | string[] | undefined> }) {
  const ua = req.headers['user-agent'];
  return { ip: req.ip ?? null, userAgent: typeof ua === 'string' ? ua : null };
}
