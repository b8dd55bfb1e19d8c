// Headless Chromium for browser tests: Debian's /usr/bin/chromium driven by playwright-core (no browser download).
// Tests skip, naming the reason, when no Chromium is installed (.ci/run installs it).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.BATON_CHROMIUM ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM_PATH);
export const NO_CHROMIUM = `no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set BATON_CHROMIUM)`;

/** Where screenshots land: test-artifacts/screenshots (gitignored; CI keeps the folder as an artifact). */
export const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', 'test-artifacts', 'screenshots');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // This machine's network is closed: without these Chromium keeps dialling Google's hosts.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** Keeps a full-page screenshot of `page` as `<name>.png` in the artifact folder. */
/** Where the README's pictures are kept (committed); written only when `BATON_README_SCREENSHOTS=1`. */
export const README_SCREENSHOT_DIR = join(import.meta.dirname, '..', 'browser', 'screenshots');

/** A screenshot for the README: kept with the others, and refreshed in the repo when asked to. */
export async function readmeScreenshot(page: Page, name: string): Promise<string> {
  const path = await screenshot(page, name);
  if (process.env.BATON_README_SCREENSHOTS === '1') {
    mkdirSync(README_SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: join(README_SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  }
  return path;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
