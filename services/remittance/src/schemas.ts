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
