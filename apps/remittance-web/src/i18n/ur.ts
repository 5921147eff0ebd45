import type { MessageKey } from './en.js';
import { en } from './en.js';

/** TODO translate */
export const ur: Record<MessageKey, string> = { ...en };
