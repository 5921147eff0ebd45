import { statusFor, type ErrorCode } from './catalog.js';

export type ErrorDetails = Record<string, string[]>;

/** A domain error carrying a catalog code; the error handler maps it to status and message. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly details?: ErrorDetails,
    readonly headers?: Record<string, string | number>,
  ) {
    super(code);
    this.status = statusFor(code);
  }
}

