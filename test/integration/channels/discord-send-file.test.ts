// send_file on Discord end to end (media.md §2): the model's tool call → the turn's answer → the gateway's reply
// sender → discord.js uploading a multipart message to the fake Discord, after the answer's text, once; a 429 on
// the upload is waited out and the file still goes once; a file over Discord's 10 MB is refused by the tool.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MIB } from '../../../src/media/attachment.ts';
import { sendFileTexts } from '../../../src/media/media-messages.ts';
import { type FakeDiscordServer, startFakeDiscordServer } from '../../fakes/discord-server.ts';
import { toolResultsOf } from '../../fakes/model-requests.ts';
import { createRuntimeHarness, type RuntimeHarness } from '../../helpers/runtime-harness.ts';
import { SEND_FILE_AGENT_TOML } from '../../helpers/test-config.ts';

const ALICE = '100000000000000001';
const PDF = Buffer.from('%PDF-1.4\n% a report\n');

let discord: FakeDiscordServer;
let h: RuntimeHarness;
let workspace: string;

const sendCall = (id: string, args: Record<string, unknown>) => ({
  toolCalls: [{ id, name: 'send_file', arguments: args }],
});
/** The bot's messages in the thread from `from` on: its text, or `file:<name>|<caption>` for a file message. */
const threadLog = (from: number) =>
  discord.sent
    .filter((m) => m.channel_id === discord.threadId)
    .slice(from)
    .map((m) => {
      const file = discord.sentFiles.find((f) => f.message.id === m.id);
      return file ? `file:${file.files.map((f) => f.filename).join(',')}|${file.content}` : m.content;
    });
const inThread = () => discord.sent.filter((m) => m.channel_id === discord.threadId).length;

beforeAll(async () => {
  discord = await startFakeDiscordServer();
  h = await createRuntimeHarness(
    'discord-send-file',
    `
${SEND_FILE_AGENT_TOML}
[channels.discord.test]
enabled = true
bot_token = "${discord.token}"
api_base_url = "${discord.apiUrl}"
mention_only = false

[peer_groups.discord]
channel = "discord.test"
agents = ["main"]
external_peers = ["${ALICE}"]

[peer_groups.local]
channel = "local"
agents = ["main"]
external_peers = ["*"]
`,
    { platformChannels: true },
  );
  workspace = join(h.dataDir, 'workspaces', 'main');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'report.pdf'), PDF);
});
afterAll(async () => {
  await h?.close();
  await discord?.close();
});
beforeEach(() => {
  h.server.reset();
});

describe('send_file on discord', () => {
  it('posts the file into the thread after the answer, once, with its caption; the next answer follows it', async () => {
    const from = inThread();
    h.server.script([
      sendCall('s1', { path: 'report.pdf', caption: 'the report' }),
      { text: 'Here it is.' },
      { text: 'You are welcome.' },
    ]);
    discord.injectMessage({ channelId: discord.threadId, content: 'send me the report' });
    await discord.waitForSent(from + 2, { channelId: discord.threadId });
    discord.injectMessage({ channelId: discord.threadId, content: 'thanks' });
    await discord.waitForSent(from + 3, { channelId: discord.threadId });
    expect(threadLog(from)).toEqual(['Here it is.', 'file:report.pdf|the report', 'You are welcome.']);
    const [sent] = discord.sentFiles.filter((f) => f.message.channel_id === discord.threadId);
    expect(sent?.files.map((f) => [f.filename, f.contentType, f.bytes.toString()])).toEqual([
      ['report.pdf', 'application/pdf', PDF.toString()],
    ]);
    const result = toolResultsOf(h.server.requests[1]!).find((r) => r.toolCallId === 's1');
    expect(result?.content).toContain(sendFileTexts.queued('report.pdf', PDF.byteLength, 'document'));
  });

  it('waits out a 429 on the upload and sends the file once', async () => {
    const from = inThread();
    const uploads = () => discord.calls.filter((c) => c.files?.length).length;
    const before = uploads();
    discord.failNext({ status: 429, retryAfterSec: 2, match: (_m, _p, call) => Boolean(call.files?.length) });
    h.server.script([sendCall('r1', { path: 'report.pdf' }), { text: 'Sending.' }]);
    discord.injectMessage({ channelId: discord.threadId, content: 'again please' });
    await discord.waitForSent(from + 2, { channelId: discord.threadId });
    expect(threadLog(from)).toEqual(['Sending.', 'file:report.pdf|']);
    // One refused upload, one that went through.
    expect(uploads() - before).toBe(2);
    expect(discord.calls.filter((c) => c.files?.length && c.status === 429)).toHaveLength(1);
  });

  it('refuses a file over Discord’s 10 MB in the tool; nothing is uploaded', async () => {
    writeFileSync(join(workspace, 'big.bin'), Buffer.alloc(10 * MIB + 1, 7));
    const from = inThread();
    const uploads = discord.sentFiles.length;
    h.server.script([sendCall('b1', { path: 'big.bin' }), { text: 'Too big.' }]);
    discord.injectMessage({ channelId: discord.threadId, content: 'the big one' });
    await discord.waitForSent(from + 1, { channelId: discord.threadId });
    const result = toolResultsOf(h.server.requests[1]!).find((r) => r.toolCallId === 'b1');
    expect(result?.content).toContain(sendFileTexts.tooLarge('big.bin', 10 * MIB + 1, 10 * MIB));
    // The answer is the turn's last reply: had a file been queued, it would have been sent right after it.
    h.server.script([{ text: 'ok' }]);
    discord.injectMessage({ channelId: discord.threadId, content: 'fine' });
    await discord.waitForSent(from + 2, { channelId: discord.threadId });
    expect(threadLog(from)).toEqual(['Too big.', 'ok']);
    expect(discord.sentFiles.length).toBe(uploads);
  });
});
