import { booksHr } from '../areas/books.hr.js';
import { einvoiceHr } from '../areas/einvoice.hr.js';
import { moneyHr } from '../areas/money.hr.js';
import type { MessageKey } from '../en.js';
import { hr } from '../hr.js';

/** Every message of the language: the base catalog and the screen areas', loaded with the signed-in frame. */
export const hrFull: Record<MessageKey, string> = { ...hr, ...booksHr, ...moneyHr, ...einvoiceHr };
