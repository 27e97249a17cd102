import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium package; `.ci/run` installs it before the tests. */
export const chromiumPath = '/usr/bin/chromium';
export const hasChromium = existsSync(chromiumPath);

/** Says once, loudly, why a browser suite is skipped, so a missing browser is never mistaken for a pass. */
export function warnIfNoChromium(suite: string): void {
  if (!hasChromium) console.warn(`[${suite}] skipped: ${chromiumPath} is missing (apt-get install chromium)`);
}

/** Headless Chromium with nothing of its own reaching the network: the machines have no internet. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
