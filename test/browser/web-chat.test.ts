// The web chat in real Chromium against a real gateway + worker on real Redis and the fake model: a reply
// arrives rendered, an approval card decides a gated tool call, model output cannot inject script.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, NO_CHROMIUM, screenshot } from '../helpers/browser.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../helpers/runtime-harness.ts';
import { WEB_CHAT_TOML } from './web-chat-toml.ts';

let h: RuntimeHarness;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let dialogs: string[];

describe.skipIf(!hasChromium)(
  `web chat in Chromium${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM})`}`,
  () => {
    beforeAll(async () => {
      h = await createRuntimeHarness('web-chat', runtimeToml(WEB_CHAT_TOML), {
        platformChannels: true,
        ops: {},
      });
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await h?.close();
    });
    beforeEach(async () => {
      h.server.reset();
      await context?.close();
      // A fresh context per test: a fresh session, so a fresh chat.
      context = await browser.newContext();
      page = await context.newPage();
      dialogs = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await page.goto(`${h.opsUrl}/chat/main`);
      await page.waitForSelector('#chat[data-live="true"]');
    });

    const send = async (text: string) => {
      await page.fill('#chat-input', text);
      await page.press('#chat-input', 'Enter');
    };
    const botMessage = (n: number) => page.locator('li.msg[data-from="bot"]').nth(n - 1);

    it('sends a message and shows the agent reply rendered from Markdown', async () => {
      // Slow enough that the typing indicator shows while the turn runs.
      h.server.script([{ text: 'Hello **there**, see [docs](https://example.com/docs).', delayMs: 1500 }]);
      expect(await page.textContent('header.top')).toContain('web:local');
      await send('hi baton');
      await page.waitForSelector('li.msg[data-from="user"]:has-text("hi baton")');
      await page.waitForSelector('#typing', { state: 'visible' });
      await botMessage(1).locator('strong:has-text("there")').waitFor();
      const link = botMessage(1).locator('a');
      expect(await link.getAttribute('href')).toBe('https://example.com/docs');
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer nofollow');
      // The model was asked with what the browser typed.
      const users = (h.server.requests[0]?.body.messages ?? []).filter((m) => m.role === 'user');
      expect(String(users.at(-1)?.content)).toContain('hi baton');
      await page.waitForSelector('#typing', { state: 'hidden' });
      await screenshot(page, 'web-chat-reply');
      // Chat commands go through as plain messages; the host answers /status itself.
      await send('/status');
      await botMessage(2).waitFor();
      expect(await botMessage(2).textContent()).toContain('main');
    });

    it('shows an approval card for a gated tool call; Approve runs the tool, the reply arrives, buttons go', async () => {
      h.server.script([
        { toolCalls: [{ name: 'file_write', arguments: { path: 'web.txt', content: 'hi' } }] },
        { text: 'written it' },
      ]);
      await send('write the file');
      const card = page.locator('li.msg[data-from="bot"]:has(button[data-action-id$=":approve"])');
      await card.waitFor();
      expect(await card.textContent()).toContain('file_write');
      await screenshot(page, 'web-chat-approval-card');
      await card.locator('button[data-action-id$=":approve"]').click();
      await page.locator('li.msg[data-from="bot"]:has-text("written it")').waitFor();
      // The card was edited to its outcome, without buttons.
      const settled = page.locator('li.msg[data-from="bot"]:has-text("Approved by web:local")');
      await settled.waitFor();
      expect(await settled.locator('button').count()).toBe(0);
      await screenshot(page, 'web-chat-approval-done');
    });

    it('renders script, javascript: links and raw HTML from the model as text (no dialog, no element)', async () => {
      const evil =
        '<script>alert(1)</script> [x](javascript:alert(1)) <img src=x onerror=alert(1)> <b onclick="alert(1)">b</b>';
      h.server.script([{ text: `${evil} END` }]);
      await send('<img src=y onerror=alert(2)> from me');
      await page.waitForSelector('li.msg[data-from="user"]:has-text("from me")');
      await botMessage(1).locator('text=END').waitFor();
      const messages = page.locator('#messages');
      expect(await messages.locator('script, img, b, iframe').count()).toBe(0);
      expect(await messages.locator('a').count()).toBe(0);
      const text = await botMessage(1).textContent();
      expect(text).toContain('<script>alert(1)</script>');
      expect(text).toContain('[x](javascript:alert(1))');
      expect(text).toContain('<img src=x onerror=alert(1)>');
      expect(await page.locator('li.msg[data-from="user"]').textContent()).toContain(
        '<img src=y onerror=alert(2)>',
      );
      expect(dialogs).toEqual([]);
      await screenshot(page, 'web-chat-xss');
    });
  },
);
