// The web chat behind api_token in real Chromium: a page redirects to /login, a wrong secret (the api_token too)
// is refused, a web user signs in with their own secret as `web:<login>`, peer groups decide who may talk (an unlisted user sees the refusal), and the
// header's Sign out ends the session.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_FAILED, LOGIN_TITLE, SIGN_OUT } from '../../src/web/auth-messages.ts';
import { NOT_ACCEPTED } from '../../src/web/chat-messages.ts';
import { hasChromium, launchBrowser, NO_CHROMIUM, screenshot } from '../helpers/browser.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../helpers/runtime-harness.ts';
import { TEST_WEB_SECRET, webUsersToml } from '../helpers/web-users.ts';

const TOKEN = 'web-login-token-5d2f81';
const TOML = `
[channels.web.main]
enabled = true

[peer_groups.web]
channel = "web.main"
agents = ["main"]
external_peers = ["web:alice"]
${webUsersToml(['alice', 'bob'])}`;

let h: RuntimeHarness;
let browser: Browser;

describe.skipIf(!hasChromium)(`web chat login${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM})`}`, () => {
  beforeAll(async () => {
    h = await createRuntimeHarness('web-chat-login', runtimeToml(TOML), {
      platformChannels: true,
      ops: { apiToken: TOKEN },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  async function signIn(login: string, token: string): Promise<Page> {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${h.opsUrl}/chat/main`);
    await page.waitForURL(/\/login\?next=%2Fchat%2Fmain$/);
    await page.fill('input[name="login"]', login);
    await page.fill('input[name="token"]', token);
    await page.click('button[type="submit"]');
    return page;
  }

  it("refuses a wrong secret, and the api_token as alice's secret, on the login page", async () => {
    const page = await signIn('alice', TOKEN);
    await page.waitForSelector(`.error:has-text("${LOGIN_FAILED}")`);
    expect(page.url()).toContain('/login');
    await screenshot(page, 'web-chat-login-refused');
  });

  it('signs in as web:alice and chats', async () => {
    const page = await signIn('alice', TEST_WEB_SECRET);
    await page.waitForURL(/\/chat\/main$/);
    await page.waitForSelector('#chat[data-live="true"]');
    expect(await page.textContent('header.top')).toContain('web:alice');
    h.server.script([{ text: 'hello alice' }]);
    await page.fill('#chat-input', 'hi');
    await page.press('#chat-input', 'Enter');
    await page.locator('li.msg[data-from="bot"]:has-text("hello alice")').waitFor();
    await screenshot(page, 'web-chat-login-alice');
  });

  it('shows the refusal to a user no peer group lists', async () => {
    const page = await signIn('bob', TEST_WEB_SECRET);
    await page.waitForSelector('#chat[data-live="true"]');
    await page.fill('#chat-input', 'hi');
    await page.press('#chat-input', 'Enter');
    await page.waitForSelector(`#chat-error:has-text("${NOT_ACCEPTED.unauthorised}")`);
    await screenshot(page, 'web-chat-login-unlisted');
  });

  it('signs out from the header: the session ends and the next page load goes to /login', async () => {
    const page = await signIn('alice', TEST_WEB_SECRET);
    await page.waitForURL(/\/chat\/main$/);
    await page.click(`header.top button:has-text("${SIGN_OUT}")`);
    await page.waitForURL(/\/login$/);
    await page.waitForSelector(`h1:has-text("${LOGIN_TITLE}")`);
    await screenshot(page, 'web-chat-login-signed-out');
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'baton_session')).toBeUndefined();
    await page.goto(`${h.opsUrl}/chat/main`);
    await page.waitForURL(/\/login\?next=%2Fchat%2Fmain$/);
    expect(await page.locator('header.top #sign-out').count()).toBe(0);
  });
});
