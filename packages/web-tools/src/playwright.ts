import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

/** Debian's chromium package; the browser tests skip (with this reason) when it is absent. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Why browser tests cannot run here, or null when they can. */
export function chromiumMissing(): string | null {
  return existsSync(CHROMIUM_PATH)
    ? null
    : `${CHROMIUM_PATH} is absent (apt-get install chromium): browser tests skipped`;
}

/**
 * Launches the system Chromium through playwright-core (no downloaded browser); `extraArgs` add to
 * CHROMIUM_ARGS (a fake camera, for one).
 */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs], headless: true });
}

/** A free TCP port on the loopback (a service whose public URL must be known before it listens). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** axe-core on the page as it is now: serious and critical violations, as "rule: target" lines. */
export async function axeViolations(page: import('playwright-core').Page): Promise<string[]> {
  const { AxeBuilder } = await import('@axe-core/playwright');
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

/**
 * Screenshots the page at its width and at 375 px into `dir` (`<name>.png`, `<name>-375.png`) and
 * answers what is wrong: axe's serious and critical violations at both widths (unless `axe: false`,
 * for a screen already checked in another language), and a sideways scroll at 375 px. Transitions
 * are stopped first, so colours are checked at rest; the page's viewport is restored after.
 */
export async function checkScreen(
  page: import('playwright-core').Page,
  dir: string,
  name: string,
  opts: { axe?: boolean } = {},
): Promise<string[]> {
  const { join } = await import('node:path');
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  await page.mouse.move(1, 1);
  await page.addStyleTag({
    content: '*, *::before, *::after { transition: none !important; animation: none !important; }',
  });
  const problems: string[] = [];
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
  const axe = opts.axe === false ? async () => [] : axeViolations;
  problems.push(...(await axe(page)).map((v) => `${name} (desktop) ${v}`));
  const size = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 740 });
  await page.waitForTimeout(150);
  await page.screenshot({ path: join(dir, `${name}-375.png`), fullPage: true });
  problems.push(...(await axe(page)).map((v) => `${name} (375 px) ${v}`));
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 1) problems.push(`${name} scrolls sideways at 375 px by ${overflow} px`);
  if (size) await page.setViewportSize(size);
  return problems;
}
