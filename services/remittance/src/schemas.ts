import { Type } from 'typebox';

/** R2 error body, shared by every route's error responses. */
export const ErrorBody = Type.Object(
  {
    error: Type.String(),
    message: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
  },
  { $id: 'ErrorBody', description: 'Error: { error, message, details? }' },
);

const errorRef = Type.Ref('ErrorBody');

/** Error responses for the given statuses (shown in the API description). */
export function errors(...statuses: number[]): Record<number, typeof errorRef> {
  return Object.fromEntries(statuses.map((s) => [s, errorRef]));
}

export const Message = Type.Object({ message: Type.String() });
