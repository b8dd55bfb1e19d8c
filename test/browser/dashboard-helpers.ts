// Shared steps of the dashboard browser tests: a signed-in browser context per web user, page waits.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createSilentLogger } from '../../src/core/logger.ts';
import { SESSION_COOKIE } from '../../src/web/auth.ts';
import { createSessionStore } from '../../src/web/session-store.ts';
import type { RuntimeHarness } from '../helpers/runtime-harness.ts';

export interface SignedIn {
  context: BrowserContext;
  page: Page;
  csrf: string;
  /** Every confirm() the page raised (each is accepted). */
  dialogs: string[];
}

/** A browser context with a real session of `login` in the harness's Redis (as /login would create it). */
export async function signIn(browser: Browser, h: RuntimeHarness, login: string): Promise<SignedIn> {
  const session = await createSessionStore(h.redis, h.prefix, createSilentLogger()).create(login);
  const context = await browser.newContext();
  await context.addCookies([{ name: SESSION_COOKIE, value: session.sessionId, url: h.opsUrl! }]);
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.accept();
  });
  return { context, page, csrf: session.csrf, dialogs };
}

/** POST from inside the page (same origin, with the session cookie), as a hand-made request would. */
export function postFromPage(page: Page, url: string, body: unknown, csrf: string | null) {
  return page.evaluate(
    async ([u, b, c]) => {
      const res = await fetch(u as string, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(c ? { 'x-csrf-token': c as string } : {}) },
        body: JSON.stringify(b),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    [url, body, csrf] as const,
  );
}
