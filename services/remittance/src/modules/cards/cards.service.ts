import { randomInt } from 'node:crypto';
import { D as Decimal } from '@app/shared/money';
import { newId } from '@app/shared/secrets';
import bcrypt from 'bcrypt';
import type { Kysely } from 'kysely';
import type { Card, CardLimitType, CardType, DB } from '../../db/types.js';
import type { UserScope } from '../../db/user-scope.js';
import { AppError, notFound, validationError } from '../../errors.js';
import { toPlainText } from '../../lib/plain-text.js';
import * as repo from './cards.repository.js';
import { PHYSICAL_ADDRESS_MAX, PHYSICAL_ADDRESS_MIN } from './cards.schemas.js';

/** Cards are valid for three years, to the end of the month. */
const VALID_YEARS = 3;

const cancelledConflict = () => new AppError('conflict', 'The card is cancelled and cannot be changed or reactivated');

export function toCardBody(c: Card) {
  return {
    id: c.id,
    type: c.type,
    status: c.status,
    maskedNumber: `---- ---- ---- ${c.last4}`,
    securityCode: '---' as const,
    expiryMonth: c.expiry_month,
    expiryYear: c.expiry_year,
    createdAt: c.created_at.toISOString(),
  };
}

function toLimitBody(l: { limit_type: CardLimitType; amount: string; currency: string; updated_at: Date }) {
  return {
    limitType: l.limit_type,
    amount: Number(l.amount),
    currency: l.currency,
    updatedAt: l.updated_at.toISOString(),
  };
}

/**
 * Feature-flagged cards (spec Cards, R14). The service keeps no full card number and no PIN.
 * Every function runs in the caller's UserScope (row-level security as that user).
 */
export interface CardsDeps {
  bcryptCost: number;
  physicalCards: boolean;
}

export async function listCards(user: UserScope) {
  return (await user.run((db) => repo.listLiveCards(db, user.userId))).map(toCardBody);
}

export async function createCard(deps: Pick<CardsDeps, 'physicalCards'>, user: UserScope, type: CardType) {
  // A physical card is part of the physical-cards feature: 404 like its route while it is off.
  if (type === 'physical' && !deps.physicalCards) throw notFound('Physical cards are not available');
  const now = new Date();
  const card = await user.run((db) =>
    repo.insertCard(db, user.userId, {
      id: newId('crd'),
      type,
      last4: String(randomInt(0, 10_000)).padStart(4, '0'),
      expiryMonth: now.getUTCMonth() + 1,
      expiryYear: now.getUTCFullYear() + VALID_YEARS,
    }),
  );
  return toCardBody(card);
}

export async function getCard(user: UserScope, cardId: string) {
  return toCardBody(await user.run((db) => owned(db, user.userId, cardId)));
}

/** active <-> frozen; a cancelled card stays cancelled (409). */
export async function setCardStatus(user: UserScope, cardId: string, status: 'active' | 'frozen') {
  return user.run(async (db) => {
    const card = await repo.setCardStatus(db, user.userId, cardId, status);
    if (card) return toCardBody(card);
    await owned(db, user.userId, cardId);
    throw cancelledConflict();
  });
}

/** Cancels (soft delete: hidden from the list); cancelling again answers the cancelled card. */
export async function cancelCard(user: UserScope, cardId: string) {
  const card = await user.run(
    async (db) =>
      (await repo.cancelCard(db, user.userId, cardId, new Date())) ?? (await owned(db, user.userId, cardId)),
  );
  return toCardBody(card);
}

export async function requestPhysicalCard(user: UserScope, cardId: string, rawAddress: string) {
  const address = toPlainText(rawAddress);
  if (address === null) {
    throw validationError('Invalid address', [
      { field: 'address', message: 'is HTML-encoded too many times over to be read as plain text' },
    ]);
  }
  if (address.length < PHYSICAL_ADDRESS_MIN || address.length > PHYSICAL_ADDRESS_MAX) {
    throw validationError('Invalid address', [
      { field: 'address', message: `must be ${PHYSICAL_ADDRESS_MIN} to ${PHYSICAL_ADDRESS_MAX} characters` },
    ]);
  }
  const card = await user.run(async (db) => {
    const requested = await repo.requestPhysicalCard(db, user.userId, cardId, address, new Date());
    if (requested) return requested;
    const existing = await owned(db, user.userId, cardId);
    if (existing.status === 'cancelled') throw cancelledConflict();
    throw new AppError('conflict', 'A physical card was already requested for this card');
  });
  return {
    cardId: card.id,
    status: 'requested' as const,
    shippingAddress: address,
    requestedAt: card.physical_requested_at!.toISOString(),
  };
}

/** Stores only a bcrypt hash of the PIN (slow on purpose: 4 digits are 10,000 guesses). */
export async function setCardPin(deps: Pick<CardsDeps, 'bcryptCost'>, user: UserScope, cardId: string, pin: string) {
  await user.run((db) => owned(db, user.userId, cardId));
  // Hashed with no connection held (bcrypt is slow on purpose).
  const hash = await bcrypt.hash(pin, deps.bcryptCost);
  const card = await user.run((db) => repo.setCardPinHash(db, user.userId, cardId, hash, new Date()));
  if (!card) throw cancelledConflict();
  return { cardId: card.id, pinSet: true as const, pinSetAt: card.pin_set_at!.toISOString() };
}

export async function listCardLimits(user: UserScope, cardId: string) {
  const limits = await user.run(async (db) => {
    await owned(db, user.userId, cardId);
    return repo.listCardLimits(db, user.userId, cardId);
  });
  return limits.map(toLimitBody);
}

export async function setCardLimit(user: UserScope, cardId: string, limitType: CardLimitType, amount: number) {
  const value = new Decimal(amount);
  if (value.decimalPlaces() > 2)
    throw validationError('Invalid amount', [{ field: 'amount', message: 'at most 2 decimals' }]);
  const row = await user.run(async (db) => {
    const saved = await repo.upsertCardLimit(db, user.userId, cardId, limitType, value.toFixed(2), new Date());
    if (saved) return saved;
    await owned(db, user.userId, cardId);
    throw cancelledConflict();
  });
  return toLimitBody(row);
}

async function owned(db: Kysely<DB>, userId: string, cardId: string): Promise<Card> {
  const card = await repo.findUserCard(db, userId, cardId);
  if (!card) throw notFound('Card not found');
  return card;
}
