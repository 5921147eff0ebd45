import { Type } from 'typebox';

export const CARD_TYPES = ['virtual', 'physical'] as const;
export const CARD_STATUSES = ['active', 'frozen', 'cancelled'] as const;

export const CardIdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const CreateCardBody = Type.Object({
  type: Type.Optional(Type.Union([Type.Literal('virtual'), Type.Literal('physical')], { default: 'virtual' })),
});

export const UpdateCardBody = Type.Object({
  status: Type.Union([Type.Literal('active'), Type.Literal('frozen')], {
    description: 'freeze or unfreeze; cancel with DELETE',
  }),
});

export const PHYSICAL_ADDRESS_MIN = 10;
export const PHYSICAL_ADDRESS_MAX = 300;

export const PhysicalCardBody = Type.Object({
  address: Type.String({
    maxLength: 1000,
    description: `shipping address, ${PHYSICAL_ADDRESS_MIN}-${PHYSICAL_ADDRESS_MAX} characters`,
  }),
});

// A string, so that a leading zero survives; a number is a wrongly typed field (400).
export const PinBody = Type.Object({
  pin: Type.String({ pattern: '^[0-9]{4}$', maxLength: 4, description: 'exactly 4 digits' }),
});

export const LIMIT_TYPES = ['daily', 'weekly', 'monthly', 'transaction'] as const;
export const LIMIT_MAX = 10_000_000;

export const LimitBody = Type.Object({
  limitType: Type.Union(LIMIT_TYPES.map((t) => Type.Literal(t))),
  amount: Type.Number({ exclusiveMinimum: 0, maximum: LIMIT_MAX, description: 'NOK, positive, at most 2 decimals' }),
});

/** R14 card body. */
export const Card = Type.Object({
  id: Type.String(),
  type: Type.Enum(CARD_TYPES),
  status: Type.Enum(CARD_STATUSES, { description: 'cancelled by DELETE' }),
  maskedNumber: Type.String({ description: '---- ---- ---- 1234' }),
  securityCode: Type.Literal('---'),
  expiryMonth: Type.Integer(),
  expiryYear: Type.Integer(),
  createdAt: Type.String(),
});

export const CardResponse = Type.Object({ data: Card });
export const CardListResponse = Type.Object({ data: Type.Array(Card) });

export const PhysicalCardResponse = Type.Object({
  data: Type.Object({
    cardId: Type.String(),
    status: Type.Literal('requested'),
    shippingAddress: Type.String(),
    requestedAt: Type.String(),
  }),
});

export const PinResponse = Type.Object({
  data: Type.Object(
    { cardId: Type.String(), pinSet: Type.Literal(true), pinSetAt: Type.String() },
    { description: 'the PIN itself is never returned' },
  ),
});

export const Limit = Type.Object({
  limitType: Type.Enum(LIMIT_TYPES),
  amount: Type.Number(),
  currency: Type.String(),
  updatedAt: Type.String(),
});
export const LimitResponse = Type.Object({ data: Limit });
export const LimitListResponse = Type.Object({ data: Type.Array(Limit) });
