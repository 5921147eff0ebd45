import { booksSr } from '../areas/books.sr.js';
import { einvoiceSr } from '../areas/einvoice.sr.js';
import { moneySr } from '../areas/money.sr.js';
import type { MessageKey } from '../en.js';
import { sr } from '../sr.js';

/** Every message of the language: the base catalog and the screen areas', loaded with the signed-in frame. */
export const srFull: Record<MessageKey, string> = { ...sr, ...booksSr, ...moneySr, ...einvoiceSr };
