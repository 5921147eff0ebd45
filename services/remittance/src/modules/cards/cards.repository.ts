import { type Kysely, sql } from 'kysely';
import type { Card, CardLimitType, CardType, DB } from '../../db/types.js';

export async function insertCard(
  db: Kysely<DB>,
  userId: string,
  card: { id: string; type: CardType; last4: string; expiryMonth: number; expiryYear: number },
): Promise<Card> {
  return db
    .insertInto('cards')
    .values({
      id: card.id,
      user_id: userId,
      type: card.type,
      last4: card.last4,
      expiry_month: card.expiryMonth,
      expiry_year: card.expiryYear,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listLiveCards(db: Kysely<DB>, userId: string): Promise<Card[]> {
  return db
    .selectFrom('cards')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '!=', 'cancelled')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findUserCard(db: Kysely<DB>, userId: string, cardId: string): Promise<Card | undefined> {
  return db.selectFrom('cards').selectAll().where('id', '=', cardId).where('user_id', '=', userId).executeTakeFirst();
}

/** Freeze or unfreeze: never a cancelled card (it cannot be reactivated). */
export async function setCardStatus(
  db: Kysely<DB>,
  userId: string,
  cardId: string,
  status: 'active' | 'frozen',
): Promise<Card | undefined> {
  return db
    .updateTable('cards')
    .set({ status })
    .where('id', '=', cardId)
    .where('user_id', '=', userId)
    .where('status', '!=', 'cancelled')
    .returningAll()
    .executeTakeFirst();
}

export async function cancelCard(db: Kysely<DB>, userId: string, cardId: string, at: Date): Promise<Card | undefined> {
  return db
    .updateTable('cards')
    .set({ status: 'cancelled', cancelled_at: at })
    .where('id', '=', cardId)
    .where('user_id', '=', userId)
    .where('status', '!=', 'cancelled')
    .returningAll()
    .executeTakeFirst();
}

/** The first physical request of a live card; a second one or a cancelled card changes nothing. */
export async function requestPhysicalCard(
  db: Kysely<DB>,
  userId: string,
  cardId: string,
  address: string,
  at: Date,
): Promise<Card | undefined> {
  return db
    .updateTable('cards')
    .set({ type: 'physical', shipping_address: address, physical_requested_at: at })
    .where('id', '=', cardId)
    .where('user_id', '=', userId)
    .where('status', '!=', 'cancelled')
    .where('physical_requested_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export async function setCardPinHash(
  db: Kysely<DB>,
  userId: string,
  cardId: string,
  pinHash: string,
  at: Date,
): Promise<Card | undefined> {
  return db
    .updateTable('cards')
    .set({ pin_hash: pinHash, pin_set_at: at })
    .where('id', '=', cardId)
    .where('user_id', '=', userId)
    .where('status', '!=', 'cancelled')
    .returningAll()
    .executeTakeFirst();
}

export async function listCardLimits(db: Kysely<DB>, userId: string, cardId: string) {
  return db
    .selectFrom('card_spending_limits')
    .select(['limit_type', 'amount', 'currency', 'updated_at'])
    .where('card_id', '=', cardId)
    .where('user_id', '=', userId)
    .orderBy(sql`array_position(ARRAY['transaction', 'daily', 'weekly', 'monthly'], limit_type)`)
    .execute();
}

/**
 * Sets the limit of one type, replacing an existing one, in one statement that also checks that
 * the card is the user's and not cancelled (nothing is written otherwise).
 */
export async function upsertCardLimit(
  db: Kysely<DB>,
  userId: string,
  cardId: string,
  limitType: CardLimitType,
  amount: string,
  at: Date,
) {
  return db
    .insertInto('card_spending_limits')
    .columns(['card_id', 'user_id', 'limit_type', 'amount', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('cards')
        .select([
          'id',
          'user_id',
          sql<CardLimitType>`${limitType}`.as('limit_type'),
          sql<string>`${amount}::numeric`.as('amount'),
          sql<Date>`${at}::timestamptz`.as('updated_at'),
        ])
        .where('id', '=', cardId)
        .where('user_id', '=', userId)
        .where('status', '!=', 'cancelled'),
    )
    .onConflict((oc) =>
      oc
        .columns(['card_id', 'limit_type'])
        .doUpdateSet((eb) => ({ amount: eb.ref('excluded.amount'), updated_at: eb.ref('excluded.updated_at') })),
    )
    .returning(['limit_type', 'amount', 'currency', 'updated_at'])
    .executeTakeFirst();
}
