import { Type } from 'typebox';
import { listQuery, Paginated } from '../../lib/pagination.js';
import { literalUnion } from '../../lib/schemas.js';

/** What raises an alert (no CHECK on the column: these are the values the code writes, typed in NewAlert). */
export const ALERT_TYPES = ['invoice_email_failed'] as const;
export const ALERT_REFERENCE_TYPES = ['invoice'] as const;

export const Alert = Type.Object({
  id: Type.String(),
  type: literalUnion(ALERT_TYPES),
  message: Type.String(),
  referenceType: Type.Union([literalUnion(ALERT_REFERENCE_TYPES), Type.Null()]),
  referenceId: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
});

export const ALERT_SORTS = ['createdAt'] as const;
export const AlertsQuery = listQuery(ALERT_SORTS, {});
export const AlertList = Paginated(Alert);
