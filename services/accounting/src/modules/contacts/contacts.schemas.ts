import { Type } from 'typebox';
import { listQuery } from '../../lib/pagination.js';
import { CurrencyCodeInput, literalUnion } from '../../lib/schemas.js';

export const CONTACT_TYPES = ['customer', 'vendor', 'both'] as const;
export const CONTACT_SORTS = ['name', 'createdAt', 'updatedAt'] as const;

const Text = (maxLength: number) => Type.Union([Type.String({ maxLength }), Type.Null()]);

export const Contact = Type.Object({
  id: Type.String(),
  type: literalUnion(CONTACT_TYPES),
  name: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  registrationNumber: Type.Union([Type.String(), Type.Null()]),
  vatNumber: Type.Union([Type.String(), Type.Null()]),
  addressLine1: Type.Union([Type.String(), Type.Null()]),
  addressLine2: Type.Union([Type.String(), Type.Null()]),
  city: Type.Union([Type.String(), Type.Null()]),
  postalCode: Type.Union([Type.String(), Type.Null()]),
  country: Type.Union([Type.String(), Type.Null()]),
  currencyCode: Type.String(),
  paymentTerms: Type.Integer(),
  isActive: Type.Boolean(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const ContactWithNotes = Type.Object({ ...Contact.properties, notes: Type.Union([Type.String(), Type.Null()]) });

const fields = {
  email: Type.Optional(Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Null()])),
  phone: Type.Optional(Text(50)),
  registrationNumber: Type.Optional(Text(50)),
  vatNumber: Type.Optional(Text(50)),
  addressLine1: Type.Optional(Text(200)),
  addressLine2: Type.Optional(Text(200)),
  city: Type.Optional(Text(100)),
  postalCode: Type.Optional(Text(20)),
  // Checked against ISO 3166-1 in the service (SVC-7004).
  country: Type.Optional(Text(10)),
  currencyCode: Type.Optional(CurrencyCodeInput),
  paymentTerms: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650 })),
  notes: Type.Optional(Text(5000)),
};

export const CreateContactBody = Type.Object({
  type: literalUnion(CONTACT_TYPES),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  ...fields,
});

export const UpdateContactBody = Type.Object({
  type: Type.Optional(literalUnion(CONTACT_TYPES)),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  ...fields,
});

export const ContactsQuery = listQuery(CONTACT_SORTS, {
  type: Type.Optional(literalUnion(CONTACT_TYPES)),
  isActive: Type.Optional(Type.Boolean({ description: 'default true: deleted contacts are hidden' })),
  search: Type.Optional(Type.String({ maxLength: 100, description: 'part of the name or e-mail' })),
});

/** Body fields whose validation failure answers with their own catalog code. */
export const CONTACT_FIELD_CODES = { country: 'SVC-7004', paymentTerms: 'SVC-7005' } as const;
