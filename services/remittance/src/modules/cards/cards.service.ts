import { randomInt } from 'node:crypto';
import bcrypt from 'bcrypt';
import { D as Decimal } from '@app/shared/money';
import type { Kysely } from 'kysely';
import type { Card, CardLimitType, CardType, DB } from '../../db/schema.js';
import { AppError, notFound, validationError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { toPlainText } from '../../lib/plain-text.js';
import * as repo from './cards.repository.js';
import { PHYSICAL_ADDRESS_MAX, PHYSICAL_ADDRESS_MIN } from './cards.schemas.js';

/** Cards are valid for three years, to the end of the month. */
const VALID_YEARS = 3;

const cancelledConflict = () => new AppError(409, 'conflict', 'The card is cancelled and cannot be changed or reactivated');

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

function toLimitBody(l: { limit_type: string; amount: string; currency: string; updated_at: Date }) {
  return { limitType: l.limit_type, amount: Number(l.amount), currency: l.currency, updatedAt: l.updated_at.toISOString() };
}

/** Feature-flagged cards (spec Cards, R14). The service keeps no full card number and no PIN. */
export class CardsService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly opts: { bcryptCost: number; physicalCards: boolean },
  ) {}

  async list(userId: string) {
    return (await repo.listLiveCards(this.db, userId)).map(toCardBody);
  }

  async create(userId: string, type: CardType) {
    // A physical card is part of the physical-cards feature: 404 like its route while it is off.
    if (type === 'physical' && !this.opts.physicalCards) throw notFound('Physical cards are not available');
    const now = new Date();
    const card = await repo.insertCard(this.db, userId, {
      id: newId('crd'),
      type,
      last4: String(randomInt(0, 10_000)).padStart(4, '0'),
      expiryMonth: now.getUTCMonth() + 1,
      expiryYear: now.getUTCFullYear() + VALID_YEARS,
    });
    return toCardBody(card);
  }

  async get(userId: string, cardId: string) {
    return toCardBody(await this.owned(userId, cardId));
  }

  /** active <-> frozen; a cancelled card stays cancelled (409). */
  async setStatus(userId: string, cardId: string, status: 'active' | 'frozen') {
    const card = await repo.setCardStatus(this.db, userId, cardId, status);
    if (card) return toCardBody(card);
    await this.owned(userId, cardId);
    throw cancelledConflict();
  }

  /** Cancels (soft delete: hidden from the list); cancelling again answers the cancelled card. */
  async cancel(userId: string, cardId: string) {
    const card = (await repo.cancelCard(this.db, userId, cardId, new Date())) ?? (await this.owned(userId, cardId));
    return toCardBody(card);
  }

  async requestPhysical(userId: string, cardId: string, rawAddress: string) {
    const address = toPlainText(rawAddress);
    if (address.length < PHYSICAL_ADDRESS_MIN || address.length > PHYSICAL_ADDRESS_MAX) {
      throw validationError('Invalid address', [
        { field: 'address', message: `must be ${PHYSICAL_ADDRESS_MIN} to ${PHYSICAL_ADDRESS_MAX} characters` },
      ]);
    }
    const card = await repo.requestPhysicalCard(this.db, userId, cardId, address, new Date());
    if (!card) {
      const existing = await this.owned(userId, cardId);
      if (existing.status === 'cancelled') throw cancelledConflict();
      throw new AppError(409, 'conflict', 'A physical card was already requested for this card');
    }
    return { cardId: card.id, status: 'requested' as const, shippingAddress: address, requestedAt: card.physical_requested_at!.toISOString() };
  }

  /** Stores only a bcrypt hash of the PIN (slow on purpose: 4 digits are 10,000 guesses). */
  async setPin(userId: string, cardId: string, pin: string) {
    await this.owned(userId, cardId);
    const hash = await bcrypt.hash(pin, this.opts.bcryptCost);
    const card = await repo.setCardPinHash(this.db, userId, cardId, hash, new Date());
    if (!card) throw cancelledConflict();
    return { cardId: card.id, pinSet: true as const, pinSetAt: card.pin_set_at!.toISOString() };
  }

  async listLimits(userId: string, cardId: string) {
    await this.owned(userId, cardId);
    return (await repo.listCardLimits(this.db, userId, cardId)).map(toLimitBody);
  }

  async setLimit(userId: string, cardId: string, limitType: CardLimitType, amount: number) {
    const value = new Decimal(amount);
    if (value.decimalPlaces() > 2) throw validationError('Invalid amount', [{ field: 'amount', message: 'at most 2 decimals' }]);
    const row = await repo.upsertCardLimit(this.db, userId, cardId, limitType, value.toFixed(2), new Date());
    if (row) return toLimitBody(row);
    await this.owned(userId, cardId);
    throw cancelledConflict();
  }

  private async owned(userId: string, cardId: string): Promise<Card> {
    const card = await repo.findUserCard(this.db, userId, cardId);
    if (!card) throw notFound('Card not found');
    return card;
  }
}
