import { Type } from 'typebox';
import { listQuery, Paginated } from '../../lib/pagination.js';

export const Alert = Type.Object({
  id: Type.String(),
  type: Type.String(),
  message: Type.String(),
  referenceType: Type.Union([Type.String(), Type.Null()]),
  referenceId: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
});

export const ALERT_SORTS = ['createdAt'] as const;
export const AlertsQuery = listQuery(ALERT_SORTS, {});
export const AlertList = Paginated(Alert);
