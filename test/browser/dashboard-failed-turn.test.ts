// A newcomer's first web chat message with no model reachable (issue 21 #13): the turn fails, the chat says so,
// and the Sessions page still lists the conversation (it used to say "No conversations yet": a failed turn writes
// no history, and the index was written only with history). Real Chromium, real gateway + worker, real Redis; the
// model provider points at a port nothing listens on.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSessionIndex } from '../../src/session/session-index.ts';
import { NO_SESSIONS } from '../../src/web/sessions/session-page-messages.ts';
import { hasChromium, launchBrowser, NO_CHROMIUM, screenshot } from '../helpers/browser.ts';
import { freePort } from '../helpers/free-port.ts';
import { spaceOf } from '../helpers/key-space.ts';
import { createRuntimeHarness, LOCAL_PEERS, type RuntimeHarness } from '../helpers/runtime-harness.ts';
import { fakeModelAgentToml } from '../helpers/test-config.ts';

const WEB_CHAT = `
[channels.web.main]
enabled = true

[peer_groups.web]
channel = "web"
agents = ["main"]
external_peers = ["web:local"]
`;

let h: RuntimeHarness;
let browser: Browser;
let page: Page;

describe.skipIf(!hasChromium)(
  `a failed turn's conversation on the Sessions page${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM})`}`,
  () => {
    beforeAll(async () => {
      const nobody = `http://127.0.0.1:${await freePort()}/v1`;
      h = await createRuntimeHarness(
        'dash-failed-turn',
        `${fakeModelAgentToml(nobody)}${LOCAL_PEERS}${WEB_CHAT}`,
        { platformChannels: true, ops: {} },
      );
      browser = await launchBrowser();
      page = await (await browser.newContext()).newPage();
    });
    afterAll(async () => {
      await browser?.close();
      await h?.close();
    });

    it('lists the web chat conversation whose only turn failed', async () => {
      await page.goto(`${h.opsUrl}/chat/main`);
      await page.waitForSelector('#chat[data-live="true"]');
      await page.fill('#chat-input', 'hello, anyone?');
      await page.press('#chat-input', 'Enter');
      await page.locator('li.msg[data-from="bot"]:has-text("No model is reachable")').waitFor();

      await page.goto(`${h.opsUrl}/`);
      const row = page.locator('tr.session', { hasText: 'web.main' });
      await row.waitFor();
      expect(await row.locator('.agent').textContent()).toBe('main');
      expect(await row.locator('.channel').textContent()).toBe('web.main');
      expect(await row.locator('.count').textContent()).toBe('0'); // no stored history: the turn failed
      expect(await page.getByText(NO_SESSIONS).count()).toBe(0);
      await screenshot(page, 'dashboard-failed-turn');

      // The index entry read back through the validating reader.
      const index = await readSessionIndex(h.redis, spaceOf(h.prefix), 0, 10);
      expect(index.total).toBe(1);
      expect(index.sessions.map((s) => [s.agent, s.sessionKey.startsWith('web.main:')])).toEqual([
        ['main', true],
      ]);
    });
  },
);
