// Files in the web chat in real Chromium against a real gateway + worker on real Redis and the fake model: an
// image picked with the keyboard from the paperclip uploads and is sent alone; the (vision) model gets the image
// and its saved-as line; a file over
// max_attachment_mb shows the server's refusal; files the agent sends (send_file) are download links that download
// their bytes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { uploadTooLarge } from '../../src/web/chat-messages.ts';
import { createLocalSessions } from '../../src/web/local-session.ts';
import { lastUserPartsOf } from '../fakes/model-requests.ts';
import { hasChromium, launchBrowser, NO_CHROMIUM, screenshot } from '../helpers/browser.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../helpers/runtime-harness.ts';
import { WEB_CHAT_TOML } from './web-chat-toml.ts';

/** 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
/** 0.05 MB: a 60 KB file is over it. */
const TOML = WEB_CHAT_TOML.replace('title = "Test chat"', 'title = "Test chat"\nmax_attachment_mb = 0.05');
/** The chat id of the browser's (local) session: what the saved-as path is named after. */
async function chatIdOf(ctx: BrowserContext): Promise<string> {
  const cookie = (await ctx.cookies()).find((c) => c.name === 'baton_session')?.value ?? '';
  const session = await createLocalSessions(h.redis, h.prefix, 'local').verify(cookie);
  return session?.chatId ?? '';
}

/** The fake model accepts images; send_file runs without an approval card (the card is web-chat.test.ts's). */
const visionAndAutoApprove = (toml: string) =>
  toml
    .replace('model = "fake-model"\n', 'model = "fake-model"\nvision = true\n')
    .replace('[risk_profiles.default]\n', '[risk_profiles.default]\nauto_approve = ["send_file"]\n');

let h: RuntimeHarness;
let browser: Browser;
let context: BrowserContext;
let page: Page;

describe.skipIf(!hasChromium)(
  `web chat files in Chromium${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM})`}`,
  () => {
    beforeAll(async () => {
      h = await createRuntimeHarness('web-chat-files', visionAndAutoApprove(runtimeToml(TOML)), {
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
      context = await browser.newContext({ acceptDownloads: true });
      page = await context.newPage();
      page.setDefaultTimeout(20_000);
      // Playwright intercepts file choosers only once a listener exists, and turning that on is asynchronous: on
      // from the start, a chooser opened right after waitForEvent is never missed.
      page.on('filechooser', () => {});
      await page.goto(`${h.opsUrl}/chat/main`);
      await page.waitForSelector('#chat[data-live="true"]');
    });

    /** Opens the picker from the paperclip with the keyboard and picks `files`. */
    async function pick(files: { name: string; mimeType: string; buffer: Buffer }[]) {
      await page.focus('#chat-attach');
      const chooser = page.waitForEvent('filechooser');
      await page.keyboard.press('Enter');
      await (await chooser).setFiles(files);
    }

    it('uploads an image picked with the keyboard and sends it alone; the vision model gets the image and its line', async () => {
      h.server.script([{ text: 'A single red pixel.' }]);
      await pick([{ name: 'pixel.png', mimeType: 'image/png', buffer: PNG }]);
      await page.waitForSelector('#chat-files li[data-state="ready"]:has-text("pixel.png")');
      await page.press('#chat-input', 'Enter');
      const mine = page.locator('li.msg[data-from="user"]');
      await mine.locator('.attachments li:has-text("pixel.png")').waitFor();
      expect(await page.locator('#chat-files li').count()).toBe(0);
      await page.locator('li.msg[data-from="bot"]:has-text("A single red pixel.")').waitFor();
      // The line names the copy the worker saved: inbox/<conversation>/<event id>-<name>, made safe.
      const clientId = (await mine.getAttribute('data-id'))?.slice('u-'.length) ?? '';
      const chatId = await chatIdOf(context);
      const saved = `inbox/web.main_${chatId}_/${chatId}_${clientId}-pixel.png`;
      expect(lastUserPartsOf(h.server.requests[0]!)).toEqual([
        { type: 'text', text: `[attachment: image pixel.png, ${PNG.length} B, saved as ${saved}]` },
        { type: 'image', mediaType: 'image/png', base64: PNG.toString('base64') },
      ]);
      await screenshot(page, 'web-chat-upload');
    });

    it("shows the server's refusal of a file over max_attachment_mb, and sends nothing", async () => {
      await pick([
        { name: 'big.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(60_000, 1) },
      ]);
      const failed = page.locator('#chat-files li[data-state="failed"]');
      await failed.waitFor();
      expect(await failed.textContent()).toContain(uploadTooLarge('0.05 MB'));
      await page.press('#chat-input', 'Enter');
      await page.locator('#chat-error:not([hidden])').waitFor();
      await screenshot(page, 'web-chat-upload-too-large');
      // Removed, the message goes without it.
      await failed.locator('button').click();
      h.server.script([{ text: 'no file, fine' }]);
      await page.fill('#chat-input', 'never mind');
      await page.press('#chat-input', 'Enter');
      await page.locator('li.msg[data-from="bot"]:has-text("no file, fine")').waitFor();
      expect(await page.locator('li.msg[data-from="user"] .attachments').count()).toBe(0);
    });

    it('shows the files the agent sends (send_file) as download links, an image with its preview; each downloads its bytes', async () => {
      const workspace = join(h.dataDir, 'workspaces', 'main');
      mkdirSync(workspace, { recursive: true });
      const report = Buffer.from('name,total\nalpha,3\n');
      writeFileSync(join(workspace, 'report.csv'), report);
      writeFileSync(join(workspace, 'pixel.png'), PNG);
      h.server.script([
        {
          toolCalls: [
            { id: 's1', name: 'send_file', arguments: { path: 'report.csv', caption: 'Your **report**' } },
            { id: 's2', name: 'send_file', arguments: { path: 'pixel.png' } },
          ],
        },
        { text: 'Here they are.' },
      ]);
      await page.fill('#chat-input', 'send me the report and the chart');
      await page.press('#chat-input', 'Enter');
      await page.locator('li.msg[data-from="bot"]:has-text("Here they are.")').waitFor();
      const link = page.locator('li.msg[data-from="bot"] a.download:has-text("report.csv")');
      await link.waitFor();
      expect(await page.locator('li.msg[data-from="bot"] strong:has-text("report")').count()).toBe(1);
      const preview = page.locator('li.msg[data-from="bot"] img.preview');
      await preview.waitFor();
      // Loaded and decoded (strings run in the page: this file has no DOM types).
      await page.waitForFunction("document.querySelector('img.preview')?.complete === true");
      expect(await page.evaluate("document.querySelector('img.preview').naturalWidth")).toBe(1);
      const download = page.waitForEvent('download');
      await link.click();
      const file = await download;
      expect(file.suggestedFilename()).toBe('report.csv');
      expect((await readFile(await file.path())).equals(report)).toBe(true);
      await screenshot(page, 'web-chat-file-sent');
    });
  },
);
