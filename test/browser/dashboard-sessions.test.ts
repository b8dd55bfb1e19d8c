// The sessions dashboard in real Chromium against a real gateway + worker (real Redis, the fake model): a turn's
// session is listed, a delegate call shows as a §18 card with collapsed Details, Copy copies the stored input,
// and a running turn is aborted after a confirmation.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TURN_ABORTED } from '../../src/channel-host/channel-messages.ts';
import { conversationId } from '../../src/channel-host/types.ts';
import { runningTurnsKey } from '../../src/fleet/running-turns.ts';
import {
  ABORT_CONFIRM,
  ABORT_SENT,
  STATE_ABORTED,
  STATE_RUNNING,
} from '../../src/web/sessions/session-page-messages.ts';
import { transcriptUrl } from '../../src/web/sessions/session-url.ts';
import { hasChromium, launchBrowser, NO_CHROMIUM, screenshot } from '../helpers/browser.ts';
import { spaceOf } from '../helpers/key-space.ts';
import { createRuntimeHarness, type RuntimeHarness } from '../helpers/runtime-harness.ts';
import { waitFor } from '../helpers/wait.ts';
import { delegationToml } from './delegation-toml.ts';

const TOML = delegationToml();

const DELEGATE_ARGS = { agent: 'helper', prompt: 'Say hi to the user', context: 'be brief' };
/** Longer than the test: the turn only ends when it is aborted. */
const HANG_MS = 120_000;

type Msg = { role?: string; content?: unknown };
const lastUserText = (msgs: Msg[]) => String(msgs.filter((m) => m.role === 'user').at(-1)?.content ?? '');

let h: RuntimeHarness;
let browser: Browser;
let context: BrowserContext;
let page: Page;

describe.skipIf(!hasChromium)(
  `sessions dashboard in Chromium${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM})`}`,
  () => {
    beforeAll(async () => {
      h = await createRuntimeHarness('dash-browser', TOML, { ops: {} });
      h.server.respond((req) => {
        const msgs = (req.body.messages ?? []) as Msg[];
        if (req.body.model === 'helper-model') return { text: 'Hello from **helper**' };
        if (msgs.at(-1)?.role === 'tool') return { text: 'All done.' };
        const text = lastUserText(msgs);
        if (text === 'slow') return { text: 'late', delayMs: HANG_MS };
        if (text === 'delegate please')
          return { toolCalls: [{ name: 'delegate', arguments: DELEGATE_ARGS }] };
        return { text: `echo: ${text}` };
      });
      browser = await launchBrowser();
      context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
      page = await context.newPage();
    });
    afterAll(async () => {
      await browser?.close();
      await h?.close();
    });

    it('lists the session of a finished turn', async () => {
      await h.local.inject({ chat: 'plain', text: 'hello' });
      await h.local.waitForReplies(1, { chat: 'plain', timeoutMs: 15_000 });
      await page.goto(`${h.opsUrl}/`);
      const row = page.locator('tr.session', { hasText: 'plain' });
      await row.waitFor();
      expect(await row.locator('.agent').textContent()).toBe('main');
      expect(await row.locator('.channel').textContent()).toBe('local.test');
      expect(await row.locator('.count').textContent()).toBe('2');
      expect(await row.locator('.state').textContent()).toBe('idle');
      await screenshot(page, 'dashboard-sessions');
    });

    it('shows a delegate call as a card: target, task, response first, provider/model under Details', async () => {
      await h.local.inject({ chat: 'deleg', text: 'delegate please' });
      const [reply] = await h.local.waitForReplies(1, { chat: 'deleg', timeoutMs: 15_000 });
      expect(reply?.text).toBe('All done.');
      await page.goto(`${h.opsUrl}/`);
      await page.locator('tr.session', { hasText: 'deleg' }).locator('.chat a').click();
      await page.waitForURL(`**${transcriptUrl('main', conversationId('local.test', 'deleg'))}`);
      const card = page.locator('.card.delegation');
      await card.waitFor();
      expect(await card.locator('summary .targets').textContent()).toBe('helper');
      expect(await card.locator('.task pre').textContent()).toBe(DELEGATE_ARGS.prompt);
      expect(await card.locator('.input pre').textContent()).toContain('"context": "be brief"');
      expect((await card.locator('.response .response-text').innerHTML()).trim()).toContain(
        'Hello from <strong>helper</strong>',
      );
      const details = card.locator('details.envelope-details');
      expect(await details.getAttribute('open')).toBeNull();
      expect(await details.locator('.served').isVisible()).toBe(false);
      await details.locator('summary').click();
      expect(await details.locator('.served').isVisible()).toBe(true);
      expect(await details.locator('.served').textContent()).toBe('custom/helper-model');
      await screenshot(page, 'dashboard-transcript-delegate');

      await card.locator('button[data-copy]').click();
      await waitFor(
        async () => (await card.locator('button[data-copy]').getAttribute('data-copied')) !== null,
        5000,
        'copy',
      );
      const copied = String(await page.evaluate('navigator.clipboard.readText()'));
      expect(JSON.parse(copied)).toEqual(DELEGATE_ARGS);
    });

    it('aborts a running turn after a confirmation, and shows it aborted', async () => {
      const conv = conversationId('local.test', 'busy');
      await h.local.inject({ chat: 'busy', text: 'hello' });
      await h.local.waitForReplies(1, { chat: 'busy', timeoutMs: 15_000 });
      await h.local.inject({ chat: 'busy', text: 'slow' });
      await waitFor(
        async () => (await h.redis.hexists(runningTurnsKey(spaceOf(h.prefix), conv), conv)) === 1,
        15_000,
        'turn running',
      );

      // The list shows the turn running, with its Abort button.
      await page.goto(`${h.opsUrl}/`);
      const row = page.locator('tr.session', { hasText: 'busy' });
      expect(await row.locator('.state').textContent()).toBe(STATE_RUNNING);
      expect(await row.locator('button[data-abort]').isVisible()).toBe(true);
      expect(
        await page.locator('tr.session', { hasText: 'plain' }).locator('button[data-abort]').isHidden(),
      ).toBe(true);

      await page.goto(`${h.opsUrl}${transcriptUrl('main', conv)}`);
      const turn = page.locator('.turn-line .turn');
      expect(await turn.locator('.state').textContent()).toBe(STATE_RUNNING);
      const button = turn.locator('button[data-abort]');
      // Declining the confirmation sends nothing.
      const dialogs: string[] = [];
      page.once('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await button.click();
      await waitFor(() => dialogs.length === 1, 5000, 'the confirmation');
      expect(dialogs[0]).toBe(ABORT_CONFIRM);
      expect(await h.redis.hexists(runningTurnsKey(spaceOf(h.prefix), conv), conv)).toBe(1);

      page.once('dialog', (d) => void d.accept());
      await button.click();
      await turn.locator('.outcome', { hasText: ABORT_SENT }).waitFor();
      await turn.locator('.state', { hasText: STATE_ABORTED }).waitFor({ timeout: 15_000 });
      expect(await button.isHidden()).toBe(true);
      const replies = await h.local.waitForReplies(2, { chat: 'busy', timeoutMs: 15_000 });
      expect(replies[1]?.text).toBe(TURN_ABORTED);
      await screenshot(page, 'dashboard-abort');
    });
  },
);
