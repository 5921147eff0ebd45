import { Type } from 'typebox';

export const NOTIFICATION_TYPES = [
  'transaction_complete',
  'qr_payment',
  'security',
  'rate_update',
  'system',
  'promotional',
] as const;

export const MarkReadBody = Type.Object({
  notificationIds: Type.Array(Type.String({ pattern: '^[a-z]+_[a-f0-9]{16}$', maxLength: 40 }), {
    maxItems: 100,
    description: 'at most 100 ids',
  }),
});

export const NotificationListResponse = Type.Object({
  data: Type.Array(
    Type.Object({
      id: Type.String(),
      type: Type.Enum(NOTIFICATION_TYPES),
      title: Type.String(),
      body: Type.String(),
      read: Type.Boolean(),
      createdAt: Type.String(),
    }),
  ),
});

export const MarkReadResponse = Type.Object({
  data: Type.Object({ updated: Type.Integer({ description: "how many of the caller's notifications the ids named" }) }),
});
