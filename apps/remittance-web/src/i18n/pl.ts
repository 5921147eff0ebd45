import type { MessageKey } from './en.js';
import { en } from './en.js';

/** TODO translate */
export const pl: Record<MessageKey, string> = { ...en };
