const osloDate = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Oslo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** Calendar date in Norway, 'YYYY-MM-DD' (the day the banks' daily access limits count). */
export function osloDay(at: Date): string {
  return osloDate.format(at);
}

export const DAY_MS = 86_400_000;
