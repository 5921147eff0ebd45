import { booksEn } from '../areas/books.en.js';
import { einvoiceEn } from '../areas/einvoice.en.js';
import { moneyEn } from '../areas/money.en.js';
import type { MessageKey } from '../en.js';
import { en } from '../en.js';

/** Every message of the language: the base catalog and the screen areas', loaded with the signed-in frame. */
export const enFull: Record<MessageKey, string> = { ...en, ...booksEn, ...moneyEn, ...einvoiceEn };
