import { Type } from 'typebox';

/** R2 error body, shared by every route's error responses. */
export const ErrorBody = Type.Object(
  {
    error: Type.String(),
    message: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
  },
  { description: 'Error: { error, message, details? }' },
);

/** Error responses for the given statuses (shown in the API description). */
export function errors(...statuses: number[]): Record<number, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBody]));
}

export const Message = Type.Object({ message: Type.String() });

/** page (default 1) and limit (default 20, 1..max): out of range is 400 bad_request (R2). */
export const PageQuery = (max: number) =>
  Type.Object({
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: max, default: 20 })),
  });

export const Pagination = Type.Object({ page: Type.Integer(), limit: Type.Integer(), total: Type.Integer() });
