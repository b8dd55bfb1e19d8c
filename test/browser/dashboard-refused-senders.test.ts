// The pairing step on the dashboard (issue 21 #15), in real Chromium against a real gateway + worker (real Redis,
// the fake model): a stranger's message gets no answer; /ui/senders lists them with the exact [peer_groups] entry;
// Admit writes their id into the TOML (comments kept) and reloads, and their next message is answered.
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusedSendersKeys } from '../../src/fleet/refused-senders.ts';
import { hasChromium, launchBrowser, NO_CHROMIUM, screenshot } from '../helpers/browser.ts';
import { createRuntimeHarness, type RuntimeHarness } from '../helpers/runtime-harness.ts';
import { fakeModelAgentToml } from '../helpers/test-config.ts';
import { postFromPage, signIn } from './dashboard-helpers.ts';

// biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder the harness fills in
const TOML = `${fakeModelAgentToml('${MODEL_URI}')}
# Who may talk to main here: nobody yet, an operator admits people from the dashboard.
[peer_groups.local]
channel = "local.test"
agents = ["main"]
external_peers = [] # ids only
`;

describe.skipIf(!hasChromium)(
  `dashboard: refused senders${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM})`}`,
  () => {
    let h: RuntimeHarness;
    let browser: Browser;
    beforeAll(async () => {
      h = await createRuntimeHarness('dash-refused', TOML, { ops: {}, reloadable: true });
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await h?.close();
    });

    it('lists a refused stranger; Admit puts their id in the TOML, reloads, and they are answered', async () => {
      expect(await h.local.inject({ chat: 'dm', text: 'hello?', senderId: '4242' })).toMatchObject({
        accepted: false,
        reason: 'unauthorised',
      });
      const { page, dialogs, csrf } = await signIn(browser, h, 'local');
      await page.goto(`${h.opsUrl}/ui/senders`);
      const row = page.locator('tr.refused[data-user="4242"]');
      await row.waitFor();
      expect(await row.locator('.channel').textContent()).toBe('local.test');
      expect(await row.locator('pre.entry').textContent()).toBe(
        '[peer_groups.local]\nchannel = "local.test"\nagents = ["main"]\nexternal_peers = ["4242"]',
      );
      await screenshot(page, 'dashboard-refused-senders');

      // A write like every config edit: the session's CSRF token, and only a sender the fleet refused.
      const admit = (userId: string, token: string | null) =>
        postFromPage(page, '/ui/senders/admit', { channel: 'local.test', user_id: userId }, token);
      expect((await admit('4242', null)).status).toBe(403);
      expect(await admit('7777', csrf)).toEqual({
        status: 404,
        body: { error: 'This sender is not in the list of refused senders.' },
      });
      expect(readFileSync(h.configPath!, 'utf8')).toContain('external_peers = [] # ids only');

      await row.getByRole('button', { name: 'Admit' }).click();
      await page.locator('#flash.ok').waitFor({ timeout: 20_000 });
      expect(await page.locator('#flash').textContent()).toBe(
        'Admitted: "4242" added to peer_groups.local.external_peers.\nReloaded by 1 of 1 process.',
      );
      expect(dialogs).toEqual(['Admit user 4242 of local.test to [peer_groups.local]?']);
      // The list is pushed again without them.
      await row.waitFor({ state: 'detached' });
      expect(await h.redis.zcard(refusedSendersKeys(h.prefix).list)).toBe(0);

      const file = readFileSync(h.configPath!, 'utf8');
      expect(file).toContain(
        '# Who may talk to main here: nobody yet, an operator admits people from the dashboard.',
      );
      expect(file).toContain('external_peers = ["4242"] # ids only');

      // The stranger's first message was never answered; their next one is.
      h.server.script([{ text: 'welcome' }]);
      // Reloaded by every process before the answer came back: the live config admits them now.
      expect((await h.local.inject({ chat: 'dm', text: 'again', senderId: '4242' })).accepted).toBe(true);
      const replies = await h.local.waitForReplies(1, { chat: 'dm', timeoutMs: 15_000 });
      expect(replies.map((r) => r.text)).toEqual(['welcome']);
    });
  },
);
