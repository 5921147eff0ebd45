import { describe, expect, it } from 'vitest';
import { assertSafeText, findUnsafeText, isUnsafeText, UnsafeTextError } from './input-hygiene.js';

describe('strings PostgreSQL cannot hold (G14)', () => {
  it('refuses NUL and unpaired surrogates, accepts paired ones', () => {
    expect(isUnsafeText('a\u0000b')).toBe(true);
    expect(isUnsafeText('\ud800')).toBe(true);
    expect(isUnsafeText('x\udc00y')).toBe(true);
    expect(isUnsafeText('😀 Đurđević')).toBe(false);
    expect(isUnsafeText('')).toBe(false);
  });

  it('points at the first unsafe value or key, however deep', () => {
    expect(findUnsafeText({ items: [{ description: 'ok' }, { description: 'x\u0000' }] })).toBe('/items/1/description');
    expect(findUnsafeText({ meta: { 'bad\u0000key': 1 } })).toBe('/meta/bad\u0000key');
    expect(findUnsafeText({ 'a/b': ['\ud800'] })).toBe('/a~1b/0');
    expect(findUnsafeText('\u0000')).toBe('');
    expect(findUnsafeText({ n: 1, b: true, z: null, s: 'fine' })).toBeNull();
  });

  it('walks objects without a prototype (query strings) and survives cycles', () => {
    const query = Object.assign(Object.create(null), { search: 'a\u0000' });
    expect(findUnsafeText(query)).toBe('/search');
    const part: Record<string, unknown> = { value: 'ok' };
    part.fields = { other: part, name: { value: '\ud800' } };
    expect(findUnsafeText(part)).toBe('/fields/name/value');
  });

  it('finds unsafe keys and values of flat parts (the quick pass) and passes safe ones', () => {
    const flat = (v: object) => {
      try {
        assertSafeText({ query: v });
        return null;
      } catch (e) {
        return (e as UnsafeTextError).validation[0].instancePath;
      }
    };
    expect(flat({ a: 'ok', n: 1, t: true, z: null, u: undefined, pair: '\ud83d\ude00' })).toBeNull();
    expect(flat({ a: 'ok', 'b\u0000': 'x' })).toBe('/b\u0000');
    expect(flat({ a: 'ok', b: 'x\udc00' })).toBe('/b');
    expect(flat(Object.assign(Object.create(null), { q: ['ok', '\u0000'] }))).toBe('/q/1');
  });

  it('names the request part in the validation error it throws', () => {
    const err = (() => {
      try {
        assertSafeText({ params: { id: 'ok' }, query: {}, body: { name: 'x\u0000' } });
      } catch (e) {
        return e as UnsafeTextError;
      }
    })();
    expect(err).toBeInstanceOf(UnsafeTextError);
    expect(err).toMatchObject({ statusCode: 400, validationContext: 'body', validation: [{ instancePath: '/name' }] });
  });
});
