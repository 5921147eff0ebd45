import type { InvoiceStatus } from '../../db/types.js';
import { AppError } from '../../lib/errors.js';

/**
 * The invoice status machine (spec "Invoice status", A10). User actions come through
 * PATCH /invoices/:id/status; `view` (public link) and `expire` (overdue job, and the derived
 * status on every read) are system transitions.
 */
export type InvoiceAction = 'send' | 'mark-paid' | 'cancel' | 'view' | 'expire';

const TRANSITIONS: Record<InvoiceAction, Partial<Record<InvoiceStatus, InvoiceStatus>>> = {
  send: { draft: 'sent' },
  'mark-paid': { sent: 'paid', viewed: 'paid', overdue: 'paid' },
  cancel: { draft: 'cancelled', sent: 'cancelled', viewed: 'cancelled', overdue: 'cancelled', paid: 'cancelled' },
  view: { sent: 'viewed' },
  expire: { sent: 'overdue', viewed: 'overdue' },
};

export const USER_ACTIONS = ['send', 'mark-paid', 'cancel'] as const;

/** The status after `action`, or 400 SVC-3004 with details.action for any other combination. */
export function nextStatus(current: InvoiceStatus, action: string): InvoiceStatus {
  const to = (TRANSITIONS as Record<string, Partial<Record<InvoiceStatus, InvoiceStatus>>>)[action]?.[current];
  if (!to || !Object.hasOwn(TRANSITIONS, action)) {
    throw new AppError('SVC-3004', {
      action: [`'${String(action).slice(0, 32)}' is not allowed when the invoice is ${current}`],
    });
  }
  return to;
}

/** A sent or viewed invoice past its due date is overdue, whether or not the job has run yet. */
export function effectiveStatus(stored: InvoiceStatus, dueDate: string, today: string): InvoiceStatus {
  return (stored === 'sent' || stored === 'viewed') && dueDate < today ? 'overdue' : stored;
}

/** Today's date (UTC) as YYYY-MM-DD: the day against which due dates are compared. */
export function todayIso(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}
