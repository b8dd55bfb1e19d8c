// send_file on Slack end to end (media.md §2): the model's tool call, the turn's outbox entry, the gateway's reply
// sender and the real Bolt WebClient's external upload against the fake Slack: into the message's thread, with
// the caption as its comment, after the answer's text, once (a 429 on the upload retried, not repeated).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSlackServer, startFakeSlack } from '../../fakes/slack-server.ts';
import { createRuntimeHarness, type RuntimeHarness } from '../../helpers/runtime-harness.ts';
import { SEND_FILE_AGENT_TOML } from '../../helpers/test-config.ts';

let fake: FakeSlackServer;
let h: RuntimeHarness;
let workspace: string;
let nextChannel = 0;
const freshChannel = () => `CS${String(++nextChannel).padStart(4, '0')}`;

const toml = (apiUrl: string) => `
${SEND_FILE_AGENT_TOML}
[channels.slack.test]
enabled = true
bot_token = "xoxb-test"
app_token = "xapp-test"
api_base_url = "${apiUrl}"

[peer_groups.slack]
channel = "slack.test"
agents = ["main"]
external_peers = ["U0ALICE"]
`;

beforeAll(async () => {
  fake = await startFakeSlack();
  h = await createRuntimeHarness('slack-send-file', toml(fake.apiUrl), { platformChannels: true });
  workspace = h.config.agents.main!.workspace.path;
  mkdirSync(workspace, { recursive: true });
});
afterAll(async () => {
  await h?.close();
  await fake?.socket.waitForNoSockets();
  await fake?.close();
});
beforeEach(() => h.server.reset());

const sendCall = (id: string, args: Record<string, unknown>) => ({
  toolCalls: [{ id, name: 'send_file', arguments: args }],
});
/** Where in the fake's call log a successful call of `method` in `channel` is (the first), or -1. */
const indexOf = (method: string, channel: string) =>
  fake.calls.findIndex(
    (c) =>
      c.method === method &&
      c.status === 200 &&
      (c.params.channel === channel || c.params.channel_id === channel),
  );
const uploadsTo = (channel: string) => fake.files.uploads.filter((u) => u.completed?.channel === channel);

describe('send_file on slack', () => {
  it('uploads the file into the thread with its caption, after the answer, exactly once', async () => {
    const channel = freshChannel();
    writeFileSync(join(workspace, 'report.txt'), 'quarterly numbers\n');
    h.server.script([
      sendCall('s1', { path: 'report.txt', caption: 'the **Q3** report' }),
      { text: 'Here it is.' },
    ]);
    const env = fake.injectMessage({ channel, text: 'send me the report' });
    const ts = (env.payload.event as { ts: string }).ts;
    const [upload] = await fake.waitFor(
      () => (uploadsTo(channel).length > 0 ? uploadsTo(channel) : undefined),
      'the upload',
    );
    expect(upload).toMatchObject({
      filename: 'report.txt',
      completed: { channel, thread_ts: ts, initial_comment: 'the *Q3* report' },
    });
    expect(upload?.bytes.toString()).toBe('quarterly numbers\n');
    const [answer] = await fake.waitForMessages(1, channel);
    expect(answer).toMatchObject({ thread_ts: ts, text: 'Here it is.' });
    // The answer's text first, then the file (as the reply sender orders an entry's parts).
    expect(indexOf('chat.postMessage', channel)).toBeLessThan(
      indexOf('files.completeUploadExternal', channel),
    );
    // The conversation's next answer: no second copy of the file.
    h.server.script([{ text: 'next' }]);
    fake.injectMessage({ channel, text: 'thanks', thread_ts: ts });
    await fake.waitForMessages(2, channel);
    expect(uploadsTo(channel)).toHaveLength(1);
    expect(
      fake.callsOf('files.getUploadURLExternal').filter((c) => c.params.filename === 'report.txt'),
    ).toHaveLength(1);
  });

  it('waits out a 429 on the upload and then sends the file once', async () => {
    const channel = freshChannel();
    writeFileSync(join(workspace, 'limits.csv'), 'a,b\n1,2\n');
    h.server.script([sendCall('r1', { path: 'limits.csv' }), { text: 'Attached.' }]);
    fake.failNext({ status: 429, retryAfterSecs: 1 }, 'files.getUploadURLExternal');
    fake.injectMessage({ channel, text: 'the csv please' });
    const [upload] = await fake.waitFor(
      () => (uploadsTo(channel).length > 0 ? uploadsTo(channel) : undefined),
      'the upload after the rate limit',
    );
    expect(upload?.bytes.toString()).toBe('a,b\n1,2\n');
    expect(fake.calls.some((c) => c.method === 'files.getUploadURLExternal' && c.status === 429)).toBe(true);
    // A later turn in the channel: by then nothing of the first went out twice.
    h.server.script([{ text: 'done' }]);
    fake.injectMessage({ channel, text: 'thanks' });
    await fake.waitFor(
      () => fake.messages.some((m) => m.channel === channel && m.text === 'done'),
      'the next answer',
    );
    expect(uploadsTo(channel)).toHaveLength(1);
    expect(fake.messages.filter((m) => m.channel === channel).map((m) => m.text)).toEqual([
      'Attached.',
      'done',
    ]);
  });
});
