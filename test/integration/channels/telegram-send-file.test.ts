// send_file on Telegram end to end (media.md §2): the model calls the tool, the worker queues the file with the
// turn's answer, the gateway's reply sender uploads it through the real grammy adapter to the fake Bot API:
// after the answer's sendMessage, once, into the topic, with a 429 on the upload retried by the reply pump.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTelegramAdapter } from '../../../channels/telegram/telegram-adapter.ts';
import { sendFileTexts } from '../../../src/media/media-messages.ts';
import { toolResultsOf } from '../../fakes/model-requests.ts';
import { type FakeTelegram, startFakeTelegram } from '../../fakes/telegram-server.ts';
import { createRuntimeHarness, type RuntimeHarness } from '../../helpers/runtime-harness.ts';
import { SEND_FILE_AGENT_TOML } from '../../helpers/test-config.ts';
import { waitFor } from '../../helpers/wait.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
let tg: FakeTelegram;
let h: RuntimeHarness;
let workspace: string;

const toml = (url: string) => `
${SEND_FILE_AGENT_TOML}
[channels.telegram.home]
enabled = true
bot_token = "T1"
api_base_url = "${url}/"
max_attachment_mb = 1

[peer_groups.tg]
channel = "telegram"
agents = ["main"]
external_peers = ["7"]
`;

beforeAll(async () => {
  tg = await startFakeTelegram({ token: 'T1' });
  h = await createRuntimeHarness('telegram-send-file', toml(tg.url), {
    // No auto-retry: a 429 on the upload goes to the reply pump, which must send the file once.
    adapters: (_config, logger) => [
      createTelegramAdapter({
        alias: 'home',
        botToken: 'T1',
        apiBaseUrl: tg.url,
        logger,
        retry: { maxAttempts: 0 },
      }),
    ],
  });
  workspace = join(h.dataDir, 'workspaces', 'main');
  mkdirSync(workspace, { recursive: true });
});
afterAll(async () => {
  await h?.close();
  await tg?.close();
});
beforeEach(() => h.server.reset());

const sendCall = (id: string, args: Record<string, unknown>) => ({
  toolCalls: [{ id, name: 'send_file', arguments: args }],
});
/** The Bot API methods that wrote into a chat, in order. */
const writesTo = (chat: number) =>
  tg.calls
    .filter((c) => /^send(Message|Photo|Document|Voice)$/.test(c.method) && Number(c.params.chat_id) === chat)
    .map((c) => c.method);
const forum = (id: number) => ({ id, type: 'supergroup' as const, is_forum: true });

describe('send_file on telegram', () => {
  it('uploads the file into the topic after the answer, once, with its caption', async () => {
    writeFileSync(join(workspace, 'report.txt'), 'quarterly numbers\n');
    h.server.script([sendCall('s1', { path: 'report.txt', caption: 'the report' }), { text: 'Here it is.' }]);
    tg.injectMessage({ chat: forum(-1040), from: 7, thread: 5, text: '@baton_test_bot send me the report' });
    await waitFor(() => tg.files.uploads.length === 1, 30_000, 'the upload');
    expect(tg.files.uploads[0]).toMatchObject({
      method: 'sendDocument',
      filename: 'report.txt',
      caption: 'the report',
      chatId: -1040,
      thread: 5,
    });
    expect(tg.files.uploads[0]?.bytes.toString()).toBe('quarterly numbers\n');
    expect(writesTo(-1040)).toEqual(['sendMessage', 'sendDocument']);
    expect(tg.sentTo(-1040, 5)[0]?.message.text).toBe('Here it is.');
    const result = toolResultsOf(h.server.requests[1]!).find((r) => r.toolCallId === 's1');
    expect(result?.content).toContain(sendFileTexts.queued('report.txt', 18, 'document'));
    // The next answer in the conversation comes after it, and no second copy of the file.
    h.server.script([{ text: 'next' }]);
    tg.injectMessage({ chat: forum(-1040), from: 7, thread: 5, text: '@baton_test_bot thanks' });
    await waitFor(() => tg.sentTo(-1040, 5).length === 3, 30_000, 'the next answer');
    expect(writesTo(-1040)).toEqual(['sendMessage', 'sendDocument', 'sendMessage']);
    expect(tg.files.uploads).toHaveLength(1);
  });

  it('sends an image as a photo; a 429 on the upload is waited out and the photo sent once', async () => {
    writeFileSync(join(workspace, 'chart.png'), PNG);
    tg.failNext('sendPhoto', { status: 429, retryAfter: 1 });
    const before = tg.files.uploads.length;
    h.server.script([sendCall('p1', { path: 'chart.png' }), { text: 'Chart attached.' }]);
    tg.injectMessage({ chat: 41, from: 7, text: 'chart please' });
    await waitFor(() => tg.files.uploads.length === before + 1, 30_000, 'the photo');
    expect(tg.files.uploads.at(-1)).toMatchObject({ method: 'sendPhoto', filename: 'chart.png', chatId: 41 });
    expect(tg.files.uploads.at(-1)?.bytes).toEqual(PNG);
    expect(writesTo(41)).toEqual(['sendMessage', 'sendPhoto', 'sendPhoto']);
    // The 429'd attempt sent nothing; the retry sent it: one photo in the chat.
    expect(tg.sentTo(41).filter((s) => s.message.photo)).toHaveLength(1);
  });

  it('refuses a file over max_attachment_mb in the tool, and sends nothing', async () => {
    writeFileSync(join(workspace, 'big.bin'), Buffer.alloc(1024 * 1024 + 1, 7));
    h.server.script([sendCall('b1', { path: 'big.bin' }), { text: 'Too big.' }]);
    tg.injectMessage({ chat: 42, from: 7, text: 'send the big one' });
    await waitFor(() => tg.sentTo(42).length === 1, 30_000, 'the answer');
    const result = toolResultsOf(h.server.requests[1]!).find((r) => r.toolCallId === 'b1');
    expect(result?.content).toContain(sendFileTexts.tooLarge('big.bin', 1024 * 1024 + 1, 1024 * 1024));
    expect(writesTo(42)).toEqual(['sendMessage']);
  });
});
