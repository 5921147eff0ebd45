import { describe, expect, it, vi } from 'vitest';
import { partPresent } from './parts.js';

describe('partPresent', () => {
  it('lets the tests run when the part is there, in CI or not', () => {
    expect(partPresent('clamd', null, 'here', false)).toBe(true);
    expect(partPresent('clamd', null, 'here', true)).toBe(true);
  });

  it('skips with a warning outside CI and fails with the part’s name in CI', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect(partPresent('pdftoppm', 'not installed', 'pdf-render', false)).toBe(false);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('pdf-render: pdftoppm is missing (not installed)'));
    } finally {
      warn.mockRestore();
    }
    expect(() => partPresent('pdftoppm', 'not installed', 'pdf-render', true)).toThrow(
      /pdf-render: pdftoppm is missing \(not installed\); CI=true/,
    );
  });
});
