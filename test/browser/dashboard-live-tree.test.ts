// The session page's live execution tree in real Chromium against a real gateway + worker (real Redis, the fake
// model): while a delegation runs, the tree shows the delegated child running under the turn, then completed,
// pushed by the server over one EventSource: the page makes no other request after it loaded (no polling).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationId } from '../../src/channel-host/types.ts';
import { STATE_IDLE, STATE_RUNNING, TREE } from '../../src/web/sessions/session-page-messages.ts';
import { transcriptUrl } from '../../src/web/sessions/session-url.ts';
import { hasChromium, launchBrowser, NO_CHROMIUM, screenshot } from '../helpers/browser.ts';
import { createRuntimeHarness, type RuntimeHarness } from '../helpers/runtime-harness.ts';
import { waitFor } from '../helpers/wait.ts';
import { delegationToml } from './delegation-toml.ts';

// Priced, so the tree shows each hop's cost.
const TOML = delegationToml(`
[cost.rates.providers.models.custom."fake-model"]
input_per_mtok = 3.0
output_per_mtok = 15.0
`);

/** The README's picture of the live tree (committed); written when BATON_README_SCREENSHOTS=1. */
const README_SHOT = join(import.meta.dirname, 'screenshots', 'live-tree.png');

type Msg = { role?: string; content?: unknown };

describe.skipIf(!hasChromium)(
  `session page: the live execution tree${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM})`}`,
  () => {
    let h: RuntimeHarness;
    let browser: Browser;
    let release: () => void = () => {};
    beforeAll(async () => {
      h = await createRuntimeHarness('dash-live-tree', TOML, { ops: {} });
      const helperAnswer = new Promise<void>((resolve) => {
        release = resolve;
      });
      h.server.respond((req) => {
        const msgs = (req.body.messages ?? []) as Msg[];
        if (req.body.model === 'helper-model') return { text: 'Hello from helper', until: helperAnswer };
        if (msgs.at(-1)?.role === 'tool') return { text: 'All done.' };
        const text = String(msgs.filter((m) => m.role === 'user').at(-1)?.content ?? '');
        if (text === 'delegate please')
          return {
            toolCalls: [
              {
                id: 'call_greet',
                name: 'delegate',
                arguments: { agent: 'helper', prompt: 'Say hi <b>now</b>' },
              },
            ],
          };
        return { text: `echo: ${text}` };
      });
      browser = await launchBrowser();
    });
    afterAll(async () => {
      release();
      await browser?.close();
      await h?.close();
    });

    it('shows the delegated child running, then completed, pushed over one stream with no polling', async () => {
      const conv = conversationId('local.test', 'tree');
      await h.local.inject({ chat: 'tree', text: 'hello' });
      await h.local.waitForReplies(1, { chat: 'tree', timeoutMs: 15_000 });

      const page: Page = await (
        await browser.newContext({ viewport: { width: 1100, height: 800 } })
      ).newPage();
      const requests: { url: string; type: string }[] = [];
      page.on('request', (r) => requests.push({ url: r.url(), type: r.resourceType() }));
      await page.goto(`${h.opsUrl}${transcriptUrl('main', conv)}`);
      const tree = page.locator('section.live-tree');
      await tree.locator('li.run[data-kind="root"][data-state="completed"]').waitFor();
      // The page and its stream are open: from here on the tree must come without a request.
      await waitFor(() => requests.some((r) => r.type === 'eventsource'), 10_000, 'the page stream');
      const loaded = requests.length;

      await h.local.inject({ chat: 'tree', text: 'delegate please' });
      const running = tree.locator('section.turn-tree[data-running="1"]');
      const child = running.locator('li.run[data-kind="delegate"]');
      await child.locator('> .run-head .agent', { hasText: 'helper' }).waitFor({ timeout: 20_000 });
      expect(await child.getAttribute('data-state')).toBe('running');
      expect(await running.locator('li.run[data-kind="root"]').first().getAttribute('data-state')).toBe(
        'running',
      );
      await expect(
        running.locator('li.tool[data-call="call_greet"]').getAttribute('data-state'),
      ).resolves.toBe('running');
      expect(await child.locator('> dl .iterations').textContent()).toBe('1');
      expect(await child.locator('> .run-head .transcript-link').getAttribute('href')).toBe(
        transcriptUrl('main', conv),
      );
      expect(await page.locator('.turn-line .state').textContent()).toBe(STATE_RUNNING);
      await screenshot(page, 'dashboard-live-tree-running');
      if (process.env.BATON_README_SCREENSHOTS === '1') {
        mkdirSync(join(README_SHOT, '..'), { recursive: true });
        await tree.screenshot({ path: README_SHOT });
      }

      release();
      const finished = tree.locator('section.turn-tree').first();
      await finished
        .locator('li.run[data-kind="delegate"][data-state="completed"]')
        .waitFor({ timeout: 20_000 });
      await finished.locator('li.run[data-kind="root"][data-state="completed"]').first().waitFor();
      await page.locator('.turn-line .state', { hasText: STATE_IDLE }).waitFor();
      expect(await tree.locator('section.turn-tree[data-running="1"]').count()).toBe(0);
      // Cost per hop: the turn's priced requests; a one-shot delegate target is not priced (delegate.md §15).
      const root = finished.locator('li.run[data-kind="root"]').first();
      expect(await root.locator('> dl .cost').textContent()).toMatch(/^\$0\.000\d{3}$/);
      expect(await finished.locator('li.run[data-kind="delegate"] > dl .cost').textContent()).toBe(
        TREE.costUnknown,
      );
      // The prompt's markup is the model's text, never the page's: nothing of it became an element.
      expect(await tree.locator('b').count()).toBe(0);
      await screenshot(page, 'dashboard-live-tree-completed');

      // No polling: after the page loaded it asked for nothing at all; its one stream stayed open throughout.
      expect(requests.slice(loaded)).toEqual([]);
      expect(requests.filter((r) => r.type === 'eventsource')).toEqual([
        { url: `${h.opsUrl}${transcriptUrl('main', conv)}/stream`, type: 'eventsource' },
      ]);
      expect(requests.filter((r) => r.type === 'fetch' || r.type === 'xhr')).toEqual([]);
    });
  },
);
