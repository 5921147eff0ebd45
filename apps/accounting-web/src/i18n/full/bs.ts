import { booksBs } from '../areas/books.bs.js';
import { einvoiceBs } from '../areas/einvoice.bs.js';
import { moneyBs } from '../areas/money.bs.js';
import { bs } from '../bs.js';
import type { MessageKey } from '../en.js';

/** Every message of the language: the base catalog and the screen areas', loaded with the signed-in frame. */
export const bsFull: Record<MessageKey, string> = { ...bs, ...booksBs, ...moneyBs, ...einvoiceBs };
