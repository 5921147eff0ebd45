import decimalDefault from 'decimal.js';
import type { Decimal as DecimalClass } from 'decimal.js';

// decimal.js ships CommonJS-style typings: under NodeNext its default import is typed as the
// module namespace although at run time it is the constructor.
export const Decimal = decimalDefault as unknown as typeof DecimalClass;
export type Dec = DecimalClass;
