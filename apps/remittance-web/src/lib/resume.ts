/**
 * A consent action (renew or link again) the service refused with 403 `reauthentication_required`
 * (step-up: an eID sign-in from the last REAUTH_MAX_AGE). The Bank accounts screen keeps it in
 * sessionStorage (this tab only), sends the user through eID sign-in, and the signed-in frame brings
 * them back to /bank-accounts, which carries it out once. Older than MAX_AGE_MS it is dropped.
 */
export type ConsentAction =
  | { action: 'renew'; consentId: string }
  | { action: 'link'; bank?: { name: string; country: string } };

const KEY = 'resumeConsentAction';
const MAX_AGE_MS = 15 * 60_000;

export function rememberConsentAction(action: ConsentAction): void {
  sessionStorage.setItem(KEY, JSON.stringify({ ...action, at: Date.now() }));
}

/** Whether an action waits (without taking it): the signed-in frame then returns to /bank-accounts. */
export function consentActionWaiting(): boolean {
  return read() !== null;
}

/** The waiting action, removed: it is carried out at most once. */
export function takeConsentAction(): ConsentAction | null {
  const action = read();
  sessionStorage.removeItem(KEY);
  return action;
}

function read(): ConsentAction | null {
  try {
    const v = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as (ConsentAction & { at: number }) | null;
    if (!v || typeof v.at !== 'number' || Date.now() - v.at > MAX_AGE_MS) return null;
    if (v.action === 'link') {
      const b = (v as { bank?: { name?: unknown; country?: unknown } }).bank;
      return typeof b?.name === 'string' && typeof b.country === 'string'
        ? { action: 'link', bank: { name: b.name, country: b.country } }
        : { action: 'link' };
    }
    if (v.action === 'renew' && typeof v.consentId === 'string') return { action: 'renew', consentId: v.consentId };
    return null;
  } catch {
    return null;
  }
}
