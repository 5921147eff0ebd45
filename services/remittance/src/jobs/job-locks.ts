/** Advisory lock keys of the remittance jobs (G12), for runExclusive (@app/shared/scheduler). */
export const JOB_LOCKS = {
  consentExpiry: 5_100_001,
  ratesRefresh: 5_100_002,
  balanceSync: 5_100_003,
  idempotencyCleanup: 5_100_004,
  retention: 5_100_005,
  paymentRecovery: 5_100_006,
  consentRenewal: 5_100_007,
} as const;
