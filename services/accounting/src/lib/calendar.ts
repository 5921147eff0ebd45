/**
 * The organization's calendar. Serbia, Bosnia and Herzegovina and Croatia share one time zone
 * (CET/CEST, the same rules under three names), so "today" and "this month" for the dashboard and
 * the default report dates are taken in that zone, not in UTC: at 00:30 on 1 March in Belgrade
 * it is still February in UTC.
 */
const ZONES: Record<string, string> = { RS: 'Europe/Belgrade', BA: 'Europe/Sarajevo', HR: 'Europe/Zagreb' };

const formatters = new Map<string, Intl.DateTimeFormat>();

export function zoneOf(country: string): string {
  return ZONES[country] ?? 'Europe/Belgrade';
}

/** The calendar date (YYYY-MM-DD) in the organization's country at `now`. */
export function organizationToday(country: string, now: Date = new Date()): string {
  const zone = zoneOf(country);
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(zone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(now).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}
