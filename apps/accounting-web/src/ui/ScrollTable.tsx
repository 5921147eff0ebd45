import type { ReactNode } from 'react';

/**
 * A wide table that scrolls sideways on a narrow screen. The scrolling region takes the keyboard
 * focus (arrow keys scroll it) and has a name, as WCAG asks of a scrollable region. It is the containing
 * block of what its cells place absolutely (visually hidden text), which would otherwise widen the page.
 */
export function ScrollTable({ minWidth, label, children }: { minWidth: number; label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable).
    <section aria-label={label} tabIndex={0} style={{ overflowX: 'auto', position: 'relative' }}>
      <div style={{ minWidth }}>{children}</div>
    </section>
  );
}
