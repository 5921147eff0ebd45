import { CodedError } from '@app/shared/errors';
import { type ErrorCode, statusFor } from './catalog.js';

export type ErrorDetails = Record<string, string[]>;

/** Adds a message to a field of an error's details. */
export function addDetail(details: ErrorDetails, field: string, message: string): void {
  details[field] ??= [];
  details[field].push(message);
}

/** A domain error carrying a catalog code; the catalog gives its status and message (A1). */
export class AppError extends CodedError<ErrorCode, ErrorDetails> {
  constructor(code: ErrorCode, details?: ErrorDetails, headers?: Record<string, string | number>) {
    super(code, code, details, headers);
  }

  /** The HTTP status the catalog gives this code. */
  get status(): number {
    return statusFor(this.code);
  }
}
