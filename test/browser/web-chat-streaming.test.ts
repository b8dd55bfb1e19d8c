// live.md §2 in the web chat, in real Chromium: the answer arrives token by token (the web chat is not
// throttled), in one message that ends as the answer; a quick answer arrives whole.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, NO_CHROMIUM, readmeScreenshot, screenshot } from '../helpers/browser.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../helpers/runtime-harness.ts';
import { waitFor } from '../helpers/wait.ts';
import { WEB_CHAT_TOML } from './web-chat-toml.ts';

/** `main` may delegate to `writer` (on `writer-model`) without asking; `writer` sorts after `main`, so `main` answers. */
const withWriter = (toml: string) =>
  `${toml
    .replace(
      '[risk_profiles.default]\n',
      '[risk_profiles.default]\ndelegation_policy = { mode = "allow" }\nauto_approve = ["delegate"]\n',
    )
    .replace('[agents.main]\n', '[agents.main]\ndelegates = ["writer"]\n')}
[providers.models.custom.writer]
uri = "\${MODEL_URI}"
model = "writer-model"

[agents.writer]
model_provider = "custom.writer"
risk_profile = "default"
`;

let h: RuntimeHarness;
let browser: Browser;
let page: Page;

/** In the page (a string: the tests compile without the DOM types): the first bot message's text. */
const FIRST_BOT_TEXT = `document.querySelector('li.msg[data-from="bot"]')?.textContent?.trim()`;

/** Records every text the first bot message shows, as the page changes it, in `window.seen`. */
const WATCH_FIRST_BOT_MESSAGE = `(() => {
  window.seen = [];
  const record = () => {
    const text = ${FIRST_BOT_TEXT};
    if (text && window.seen.at(-1) !== text) window.seen.push(text);
  };
  new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

describe.skipIf(!hasChromium)(
  `web chat streaming in Chromium${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM})`}`,
  () => {
    beforeAll(async () => {
      h = await createRuntimeHarness('web-chat-stream', withWriter(runtimeToml(WEB_CHAT_TOML)), {
        platformChannels: true,
        ops: {},
      });
      browser = await launchBrowser();
      page = await (await browser.newContext()).newPage();
      await page.goto(`${h.opsUrl}/chat/main`);
      await page.waitForSelector('#chat[data-live="true"]');
    });
    afterAll(async () => {
      await browser?.close();
      await h?.close();
    });

    it('shows the answer growing token by token in one message', async () => {
      const tokens = Array.from({ length: 24 }, (_, i) => `token${i} `);
      const full = tokens.join('').trim();
      h.server.script([{ textChunks: tokens, chunkDelayMs: 120 }]);
      await page.evaluate(WATCH_FIRST_BOT_MESSAGE);
      await page.fill('#chat-input', 'stream to me');
      await page.press('#chat-input', 'Enter');
      const first = page.locator('li.msg[data-from="bot"]').first();
      await waitFor(async () => (await first.textContent())?.trim() === full, 30_000, 'the whole answer');
      const seen = (await page.evaluate('window.seen')) as string[];
      // Each step a longer prefix of the answer: tokens arriving, never a second message.
      expect(seen.length).toBeGreaterThanOrEqual(5);
      for (const text of seen) expect(full.startsWith(text)).toBe(true);
      expect(await page.locator('li.msg[data-from="bot"]').count()).toBe(1);
      await screenshot(page, 'web-chat-streaming');
    });

    it('shows the progress of a delegation in its own message, ending as a one-line summary', async () => {
      h.server.script(
        [
          {
            toolCalls: [
              { id: 'w1', name: 'delegate', arguments: { agent: 'writer', prompt: 'draft the report' } },
            ],
          },
          { text: 'Here is the report.' },
        ],
        { model: 'fake-model' },
      );
      h.server.script([{ text: 'the draft', delayMs: 4000 }], { model: 'writer-model' });
      await page.fill('#chat-input', 'write me a report');
      await page.press('#chat-input', 'Enter');
      const progress = page.locator('li.msg[data-from="bot"]:has-text("Working…")');
      await progress.locator('text=writer (delegate, bounded): thinking').waitFor({ timeout: 30_000 });
      await readmeScreenshot(page, 'live-progress');
      await page
        .locator('li.msg[data-from="bot"]:has-text("Here is the report.")')
        .waitFor({ timeout: 30_000 });
      await page
        .locator('li.msg[data-from="bot"]:has-text("Done in")')
        .filter({ hasText: '1 child run (writer)' })
        .waitFor({ timeout: 30_000 });
    });
  },
);
