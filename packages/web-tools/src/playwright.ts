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

/** Launches the system Chromium through playwright-core (no downloaded browser). */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}
