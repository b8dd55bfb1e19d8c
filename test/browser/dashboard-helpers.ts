// Shared steps of the dashboard browser tests: a signed-in browser context per web user, page waits.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
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

/**
 * A browser context with a real session of `login` in the harness's Redis (as /login would create it); the
 * harness config must list the login under [gateway.web_users] (webUsersToml).
 */
export async function signIn(browser: Browser, h: RuntimeHarness, login: string): Promise<SignedIn> {
  const session = await createSessionStore(h.redis, h.prefix, createSilentLogger()).create(login, 'user');
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

export interface RecordedRequest {
  url: string;
  type: string;
  method: string;
}

/** Every request the page makes from now on (call before goto to see its stream open). */
export function recordRequests(page: Page): RecordedRequest[] {
  const requests: RecordedRequest[] = [];
  page.on('request', (r) => requests.push({ url: r.url(), type: r.resourceType(), method: r.method() }));
  return requests;
}

/**
 * Pushed, not polled: the page opened exactly one EventSource (`streamPath`) and read nothing else with fetch or
 * XHR (its writes, POSTs, aside).
 */
export function onlyPushed(requests: readonly RecordedRequest[], origin: string, streamPath: string): void {
  expect(requests.filter((r) => r.type === 'eventsource').map((r) => r.url)).toEqual([
    `${origin}${streamPath}`,
  ]);
  expect(requests.filter((r) => (r.type === 'fetch' || r.type === 'xhr') && r.method !== 'POST')).toEqual([]);
}
