import type { Complaint, ComplaintCategory, GdprConsent, GdprConsentType } from '../../db/types.js';
import type { UserScope } from '../../db/user-scope.js';
import { badRequest, type ErrorDetail, notFound, validationError } from '../../errors.js';
import { pageOf, pagination } from '../../lib/pagination.js';
import { toPlainText } from '../../lib/plain-text.js';
import * as complaints from './complaints.repository.js';
import * as consents from './consents.repository.js';
import { COMPLAINT_COMMITMENT, COMPLAINT_DESCRIPTION_MAX, COMPLAINT_SUBJECT_MAX } from './gdpr.schemas.js';

const NESTED_MESSAGE = 'is HTML-encoded too many times over to be read as plain text';

export function toConsentRecord(c: GdprConsent) {
  return {
    id: c.id,
    consent_type: c.consent_type,
    granted: c.granted === 1,
    granted_at: c.granted_at?.toISOString() ?? null,
    withdrawn_at: c.withdrawn_at?.toISOString() ?? null,
    ip_address: c.ip_address,
  };
}

export function toConsentEventRecord(e: consents.GdprConsentEvent) {
  return {
    id: e.id,
    consent_id: e.consent_id,
    consent_type: e.consent_type,
    granted: e.granted === 1,
    ip_address: e.ip_address,
    created_at: e.created_at.toISOString(),
  };
}

export function toComplaintRecord(c: Complaint) {
  return {
    id: c.id,
    category: c.category,
    subject: c.subject,
    description: c.description,
    status: c.status,
    resolution: c.resolution,
    created_at: c.created_at.toISOString(),
    resolved_at: c.resolved_at?.toISOString() ?? null,
  };
}

// GDPR consent records and complaints (spec Consent, Complaint), in the caller's UserScope.

export async function listConsents(user: UserScope) {
  return (await user.run((db) => consents.listUserGdprConsents(db, user.userId))).map(toConsentRecord);
}

/** Every grant and withdrawal with its time and IP, newest first (the proof GDPR Art. 7(1) asks for). */
export async function listConsentHistory(user: UserScope, query: { page?: string; limit?: string }) {
  const page = pageOf(query, 50, 100);
  const { rows, total } = await user.run((db) => consents.listUserGdprConsentEvents(db, user.userId, page));
  return { data: rows.map(toConsentEventRecord), pagination: pagination(page, total) };
}

/** Creates or updates the record and appends the action, with its IP, to the history. */
export async function recordConsent(
  user: UserScope,
  input: { type: GdprConsentType; granted: boolean; ip: string | null },
) {
  const at = new Date();
  const saved = await user.transaction(async (trx) => {
    const row = await consents.upsertGdprConsent(trx, user.userId, { ...input, at });
    await consents.insertGdprConsentEvent(trx, user.userId, row);
    return row;
  });
  return { created: saved.created, consent: toConsentRecord(saved) };
}

export async function createComplaint(
  user: UserScope,
  input: { category: ComplaintCategory; subject: string; description: string },
) {
  const subject = toPlainText(input.subject);
  const description = toPlainText(input.description);
  const nested: ErrorDetail[] = [];
  if (subject === null) nested.push({ field: 'subject', message: NESTED_MESSAGE });
  if (description === null) nested.push({ field: 'description', message: NESTED_MESSAGE });
  if (subject === null || description === null) throw validationError('Some fields are not plain text', nested);
  const empty: ErrorDetail[] = [];
  if (!subject) empty.push({ field: 'subject', message: 'is empty (after removing HTML)' });
  if (!description) empty.push({ field: 'description', message: 'is empty (after removing HTML)' });
  if (empty.length) throw badRequest('Subject and description are required', empty);
  const tooLong: ErrorDetail[] = [];
  if (subject.length > COMPLAINT_SUBJECT_MAX)
    tooLong.push({ field: 'subject', message: `must be at most ${COMPLAINT_SUBJECT_MAX} characters` });
  if (description.length > COMPLAINT_DESCRIPTION_MAX) {
    tooLong.push({ field: 'description', message: `must be at most ${COMPLAINT_DESCRIPTION_MAX} characters` });
  }
  if (tooLong.length) throw validationError('Some fields are too long', tooLong);
  const row = await user.run((db) =>
    complaints.insertComplaint(db, user.userId, { category: input.category, subject, description }),
  );
  return { data: toComplaintRecord(row), commitmentNote: COMPLAINT_COMMITMENT };
}

export async function getComplaint(user: UserScope, complaintId: string) {
  const row = await user.run((db) => complaints.findUserComplaint(db, user.userId, complaintId));
  if (!row) throw notFound('Complaint not found');
  return toComplaintRecord(row);
}

export async function listComplaints(user: UserScope, query: { page?: string; limit?: string }) {
  const page = pageOf(query, 10, 100);
  const { rows, total } = await user.run((db) => complaints.listUserComplaints(db, user.userId, page));
  return { data: rows.map(toComplaintRecord), pagination: pagination(page, total) };
}
