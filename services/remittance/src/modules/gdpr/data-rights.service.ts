import type { Static } from 'typebox';
import type { UserScope } from '../../db/user-scope.js';
import { notFound } from '../../errors.js';
import { revokeAllSessions } from '../auth/sessions.repository.js';
import { type OpenBankingDeps, tellBankRevoked } from '../open-banking/open-banking.service.js';
import { insertGdprConsentEvent, withdrawAllGdprConsents } from './consents.repository.js';
import * as repo from './data-rights.repository.js';
import type { DataExportResponse } from './gdpr.schemas.js';
import { anonymiseErasedAccount } from './retention.repository.js';

type ExportData = Static<typeof DataExportResponse>['data'];

export const RETENTION_YEARS = 5;
export const RETENTION_NOTE =
  `Your account is closed and you have been signed out everywhere. Under anti-money-laundering law we keep your ` +
  `records for ${RETENTION_YEARS} years after closure; they are used for nothing else and deleted after that. ` +
  `Signing in with eID again creates a new, empty account.`;

// The rights of access (export) and erasure (spec GDPR and compliance, R6, R16).

/**
 * Every personal record of the user, read in one repeatable-read snapshot, together with the
 * data access request that the export itself creates.
 */
export async function exportData(user: UserScope, ip: string | null) {
  const at = new Date();
  return user.transaction(
    async (trx) => {
      await repo.insertDataAccessRequest(trx, user.userId, { type: 'export', ip, at });
      const profile = await repo.findUserForExport(trx, user.userId);
      if (!profile) throw notFound('User not found');
      const sections = await repo.selectExportSections(trx, user.userId);
      // The sections come from the registry, which the completeness test holds to the schema.
      const data = { user: profile, ...sections } as ExportData;
      return { data, exportedAt: at.toISOString() };
    },
    { isolation: 'repeatable read' },
  );
}

/**
 * Erasure in one transaction: the user is marked erased, every session revoked (both
 * surfaces: the per-request check then fails at once), open banking consents revoked, GDPR
 * consents withdrawn, cards cancelled, the erasure request recorded, and everything
 * anti-money-laundering law does not need anonymised (docs/data-retention.md); the rest stays
 * until retain_until, when the retention job purges it. The bank is told about the revoked
 * consents after the commit.
 */
export async function eraseAccount(
  deps: { openBanking: OpenBankingDeps },
  user: UserScope,
  ip: string | null,
): Promise<{ message: string; retentionNote: string }> {
  const at = new Date();
  const userId = user.userId;
  const revoked = await user.transaction(async (trx) => {
    if (!(await repo.markUserErased(trx, userId, at))) throw notFound('User not found');
    await revokeAllSessions(trx, userId, 'erasure');
    const consents = await repo.revokeAllOpenBankingConsents(trx, userId, at);
    for (const c of await withdrawAllGdprConsents(trx, userId, at)) {
      await insertGdprConsentEvent(trx, userId, { ...c, ip_address: ip });
    }
    await repo.cancelAllCards(trx, userId, at);
    // The request itself is recorded without the IP: anonymised like the rest.
    await repo.insertDataAccessRequest(trx, userId, { type: 'erasure', ip: null, at });
    const retainUntil = new Date(at);
    retainUntil.setUTCFullYear(retainUntil.getUTCFullYear() + RETENTION_YEARS);
    await anonymiseErasedAccount(trx, userId, retainUntil);
    return consents;
  });
  await tellBankRevoked(deps.openBanking, revoked);
  return { message: 'Your account has been deleted', retentionNote: RETENTION_NOTE };
}
