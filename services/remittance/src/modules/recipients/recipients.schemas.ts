import { Type } from 'typebox';
import { CORRIDOR_COUNTRIES, RECEIVE_CURRENCIES } from '../../lib/corridors.js';
import { PageQuery, Pagination } from '../../schemas.js';

export const RecipientIdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const RecipientListQuery = PageQuery(50);

export const CreateRecipientBody = Type.Object({
  name: Type.String({ maxLength: 200, description: 'a person name: 1-100 characters with a letter, no HTML' }),
  country: Type.Enum(CORRIDOR_COUNTRIES),
  currency: Type.Enum(RECEIVE_CURRENCIES),
  bankAccount: Type.String({ maxLength: 64, description: "IBAN of the recipient's country (checksum verified)" }),
  bankName: Type.Optional(Type.String({ maxLength: 1000, description: 'cut to 200 characters' })),
});

export const UpdateRecipientBody = Type.Object(
  {
    name: Type.Optional(CreateRecipientBody.properties.name),
    country: Type.Optional(CreateRecipientBody.properties.country),
    currency: Type.Optional(CreateRecipientBody.properties.currency),
    bankAccount: Type.Optional(
      Type.String({
        maxLength: 64,
        description: "IBAN of the recipient's country (checksum verified); required with a new country",
      }),
    ),
    bankName: Type.Optional(
      Type.Union([Type.String({ maxLength: 1000, description: 'cut to 200 characters' }), Type.Null()], {
        description: 'null or blank removes it',
      }),
    ),
  },
  { description: 'the fields to change (at least one); the others keep their values' },
);

export const Recipient = Type.Object({
  id: Type.String(),
  name: Type.String(),
  country: Type.Enum(CORRIDOR_COUNTRIES),
  currency: Type.Enum(RECEIVE_CURRENCIES),
  bankAccount: Type.String({ description: 'masked: only the last four characters shown' }),
  bankName: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
});

export const RecipientResponse = Type.Object({ data: Recipient });
export const RecipientListResponse = Type.Object({ data: Type.Array(Recipient), pagination: Pagination });
