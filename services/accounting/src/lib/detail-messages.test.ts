import { describe, expect, it } from 'vitest';
import { localizeDetail, localizeDetails } from './detail-messages.js';

describe('error detail messages (issue 25 item 6)', () => {
  it('are translated in sr, bs and hr, with the field keys kept English', () => {
    const details = { email: ['is required'], name: ['must not have more than 200 characters'] };
    expect(localizeDetails(details, 'sr')).toEqual({ email: ['je obavezno'], name: ['sme imati najviše 200 znakova'] });
    expect(localizeDetails(details, 'hr')).toEqual({
      email: ['je obavezno'],
      name: ['smije imati najviše 200 znakova'],
    });
    expect(localizeDetails(details, 'en')).toBe(details);
  });

  it('keep the variable part of a validator message', () => {
    expect(localizeDetail('must be one of: send, mark-paid, cancel', 'bs')).toBe(
      'mora biti jedno od: send, mark-paid, cancel',
    );
    expect(localizeDetail('must match format "uuid"', 'hr')).toBe('mora biti u formatu uuid');
  });

  it('leave a message without a translation in English', () => {
    expect(localizeDetail('line 3: bad date', 'sr')).toBe('line 3: bad date');
  });
});
