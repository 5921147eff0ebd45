import { addMessages } from '../index.js';
import { moneyBs } from './money.bs.js';
import { moneyEn } from './money.en.js';
import { moneyHr } from './money.hr.js';
import { moneySr } from './money.sr.js';

/**
 * The money screens' messages (expenses, banking, reconciliation), registered when the signed-in frame
 * loads: they are not part of the sign-in page's JavaScript (its 150 KB budget, bench/web-bundle.ts).
 */
addMessages({ en: moneyEn, sr: moneySr, bs: moneyBs, hr: moneyHr });
