// The Slack adapter on the real Bolt, against the fake Slack, with the real runtime (gateway + worker on Redis).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelAdapter, InboundAction } from '../../../src/channel-host/types.ts';
import { attachmentFailedLine, attachmentReasons } from '../../../src/media/media-messages.ts';
import { FAKE_BOT_ID, FAKE_BOT_USER, messageEvent } from '../../fakes/slack-payloads.ts';
import { type FakeSlackServer, startFakeSlack } from '../../fakes/slack-server.ts';
import { createRuntimeHarness, echoResponder, type RuntimeHarness } from '../../helpers/runtime-harness.ts';
import { slackToml } from './slack-fixture.ts';

let fake: FakeSlackServer;
let h: RuntimeHarness;
let slack: ChannelAdapter;
const presses: InboundAction[] = [];
let nextChannel = 0;
/** A channel id of its own per test, so tests never see each other's messages. */
const freshChannel = () => `C${String(++nextChannel).padStart(4, '0')}`;

beforeAll(async () => {
  fake = await startFakeSlack();
  const toml = slackToml('test', fake.apiUrl, `app_token = "xapp-test"`);
  h = await createRuntimeHarness('slack', toml, {
    actions: {
      handle: async (a) => {
        presses.push(a);
        return { notice: `noticed ${a.actionId}` };
      },
    },
    platformChannels: true,
  });
  slack = h.adapters.find((a) => a.key === 'slack.test')!;
});
afterAll(async () => {
  await h?.close();
  await fake?.socket.waitForNoSockets();
  await fake?.close();
});
beforeEach(() => {
  h.server.reset();
  h.server.respond(echoResponder((text) => (text.includes('slow') ? 2500 : 0)));
  presses.length = 0;
});

describe('slack channel', () => {
  it('connects over Socket Mode with the app token and the fake Web API root', () => {
    const open = fake.callsOf('apps.connections.open');
    expect(open.length).toBeGreaterThanOrEqual(1);
    expect(open[0]?.token).toBe('xapp-test');
    expect(fake.callsOf('auth.test')[0]?.token).toBe('xoxb-test');
    expect(slack.maxMessageLength).toBe(3000);
  });

  it('answers a channel message in its thread, a thread reply in that thread, and a DM in the DM', async () => {
    const channel = freshChannel();
    const top = fake.injectMessage({ channel, text: 'hello <@U0BOT>' });
    const [reply] = await fake.waitForMessages(1, channel);
    const ts = (top.payload.event as { ts: string }).ts;
    expect(reply).toMatchObject({ channel, thread_ts: ts, text: 'echo: hello &lt;@U0BOT&gt;' });

    fake.injectMessage({ channel, text: 'more', thread_ts: ts });
    const replies = await fake.waitForMessages(2, channel);
    expect(replies[1]).toMatchObject({ thread_ts: ts, text: 'echo: more' });

    const dm = `D${freshChannel()}`;
    fake.injectMessage({ channel: dm, channel_type: 'im', text: 'private' });
    const [dmReply] = await fake.waitForMessages(1, dm);
    expect(dmReply?.text).toBe('echo: private');
    expect(dmReply?.thread_ts).toBeUndefined();
  });

  it('sends a reply longer than the limit as ordered chunks that reassemble it', async () => {
    const channel = freshChannel();
    const words = Array.from({ length: 1400 }, (_, i) => `w${i}`).join(' ');
    h.server.respond(() => ({ text: words }));
    fake.injectMessage({ channel, text: 'long please' });
    await h.server.waitForRequests(1);
    const chunks = await fake.waitForMessages(3, channel);
    const all = fake.messages.filter((m) => m.channel === channel);
    for (const c of all) expect([...c.text].length).toBeLessThanOrEqual(3000);
    expect(all.map((m) => m.text).join(' ')).toBe(words);
    expect(new Set(all.map((m) => m.thread_ts)).size).toBe(1);
    expect(chunks.length).toBeGreaterThanOrEqual(3);
  });

  it('round-trips a button: Block Kit out, the press acked and handed to the runtime, the edit removes it', async () => {
    const channel = freshChannel();
    const ref = await slack.send(
      { channel: 'slack.test', chat: channel, thread: '111.222' },
      {
        text: 'Approve?',
        buttons: [
          [
            { id: 'ap:1', label: 'Approve', style: 'primary' },
            { id: 'dn:1', label: 'Deny', style: 'danger' },
          ],
        ],
      },
    );
    const [posted] = await fake.waitForMessages(1, channel);
    expect(posted?.blocks).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: 'Approve?' } },
      {
        type: 'actions',
        block_id: 'baton-row-0',
        elements: [
          {
            type: 'button',
            action_id: 'ap:1',
            value: 'ap:1',
            text: { type: 'plain_text', text: 'Approve', emoji: true },
            style: 'primary',
          },
          {
            type: 'button',
            action_id: 'dn:1',
            value: 'dn:1',
            text: { type: 'plain_text', text: 'Deny', emoji: true },
            style: 'danger',
          },
        ],
      },
    ]);
    const env = fake.press({
      messageTs: ref.messageId,
      actionId: 'dn:1',
      user: 'U0ALICE',
      username: 'alice',
    });
    await fake.socket.waitForAck(env.envelope_id);
    await fake.waitFor(() => presses.length === 1, 'the press at the action handler');
    expect(presses[0]).toMatchObject({
      kind: 'action',
      channel: 'slack.test',
      chat: channel,
      thread: '111.222',
      sender: { id: 'U0ALICE', username: 'alice' },
      actionId: 'dn:1',
      messageId: ref.messageId,
    });
    // The handler's notice goes to the presser alone, in the card's thread.
    await fake.waitFor(() => fake.callsOf('chat.postEphemeral').length === 1, 'the ephemeral notice');
    expect(fake.callsOf('chat.postEphemeral')[0]?.params).toMatchObject({
      channel,
      user: 'U0ALICE',
      text: 'noticed dn:1',
      thread_ts: '111.222',
    });
    await slack.edit(ref, { text: 'Denied by alice' });
    const msg = fake.messages.find((m) => m.ts === ref.messageId);
    expect(msg?.text).toBe('Denied by alice');
    expect(msg?.blocks).toEqual([]);
    expect(fake.callsOf('chat.update').at(-1)?.params.blocks).toEqual([]);
  });

  it('runs a slow turn to its reply; typing degrades to nothing (Slack has no bot typing indicator)', async () => {
    const channel = freshChannel();
    const before = fake.calls.length;
    fake.injectMessage({ channel, text: 'slow one' });
    await h.server.waitForRequests(1);
    await slack.typing({ channel: 'slack.test', chat: channel });
    const [reply] = await fake.waitForMessages(1, channel);
    expect(reply?.text).toBe('echo: slow one');
    expect(fake.calls.slice(before).map((c) => c.method)).toEqual(['chat.postMessage']);
  });

  it('starts no model request for an unauthorised sender', async () => {
    const channel = freshChannel();
    const stranger = fake.injectMessage({ channel, user: 'U0MALLORY', text: 'let me in' });
    await fake.socket.waitForAck(stranger.envelope_id);
    // Proof the stranger's message was handled (and dropped): a later one from alice is answered alone.
    fake.injectMessage({ channel, text: 'after' });
    const [reply] = await fake.waitForMessages(1, channel);
    expect(reply?.text).toBe('echo: after');
    expect(h.server.requests).toHaveLength(1);
  });

  it('skips malformed and unexpected events and keeps working', async () => {
    const channel = freshChannel();
    const sent = [
      fake.injectMessage({ channel, text: 'edited', extra: { subtype: 'message_changed' } }),
      fake.injectMessage({ channel, text: 'gone', extra: { subtype: 'message_deleted' } }),
      fake.injectMessage({ channel, text: 'joined', extra: { subtype: 'channel_join' } }),
      fake.injectMessage({ channel, text: 'beep', extra: { subtype: 'bot_message', bot_id: 'B0OTHER' } }),
      fake.injectMessage({ channel, text: 'other bot', extra: { bot_id: 'B0OTHER' } }),
      fake.injectMessage({ channel, user: FAKE_BOT_USER, text: 'my own', extra: { bot_id: FAKE_BOT_ID } }),
      fake.injectEvent({ type: 'message', channel, text: 'no ts, no user' }),
      fake.injectEvent({ type: 'reaction_added', user: 'U0ALICE', reaction: 'tada' }),
      fake.socket.push('events_api', { type: 'event_callback' }),
    ];
    fake.socket.sendRaw('{not json');
    fake.socket.sendRaw(JSON.stringify({ type: 'mystery', envelope_id: 'env-x' }));
    // All acked, the envelope without an event too (so Slack would not redeliver it).
    for (const env of sent) await fake.socket.waitForAck(env.envelope_id);
    fake.injectMessage({
      channel,
      text: 'a photo',
      extra: { subtype: 'file_share', files: [{ id: 'F1', name: 'p.png' }] },
    });
    const [reply] = await fake.waitForMessages(1, channel);
    // A file object without a URL: reported, not dropped (slack-files.test.ts has the rest of the lines).
    expect(reply?.text).toBe(
      `echo: a photo\n${attachmentFailedLine('file', 'p.png', 'size unknown', attachmentReasons.notFound)}`,
    );
    expect(h.server.requests).toHaveLength(1);
  });

  it('gives one turn for a message delivered as message and app_mention, and for Slack retries', async () => {
    const channel = freshChannel();
    const event = messageEvent({ channel, text: '<@U0BOT> once' });
    const first = fake.injectEvent(event);
    fake.injectEvent({ ...event, type: 'app_mention', channel_type: undefined });
    fake.socket.redeliver(first, 'http_timeout');
    const [reply] = await fake.waitForMessages(1, channel);
    expect(reply?.text).toBe('echo: once');
    // A later message is answered, so the duplicates were processed (and dropped) before it.
    fake.injectMessage({ channel, text: 'next', thread_ts: event.ts as string });
    await fake.waitForMessages(2, channel);
    expect(h.server.requests).toHaveLength(2);
    expect(fake.messages.filter((m) => m.channel === channel).map((m) => m.text)).toEqual([
      'echo: once',
      'echo: next',
    ]);
  });

  it('recovers from a 500, a dropped socket and a disconnect request with nothing lost', async () => {
    const channel = freshChannel();
    fake.failNext({ status: 500 }, 'chat.postMessage');
    fake.injectMessage({ channel, text: 'one' });
    await fake.waitForMessages(1, channel);
    expect(fake.calls.some((c) => c.method === 'chat.postMessage' && c.status === 500)).toBe(true);

    const before = fake.socket.connections;
    fake.socket.drop();
    fake.injectMessage({ channel, text: 'two' }); // queued at the fake until the client is back
    await fake.socket.waitForConnections(before + 1, 30_000);
    fake.socket.sendDisconnect('refresh_requested');
    await fake.socket.waitForConnections(before + 2, 30_000);
    fake.injectMessage({ channel, text: 'three' });
    const replies = await fake.waitForMessages(3, channel, undefined, 30_000);
    expect(replies.map((m) => m.text).sort()).toEqual(['echo: one', 'echo: three', 'echo: two']);
  });

  it('honours a 429 with retry_after and still delivers the reply', async () => {
    const channel = freshChannel();
    fake.failNext({ status: 429, retryAfterSecs: 1 }, 'chat.postMessage');
    fake.injectMessage({ channel, text: 'busy' });
    const [reply] = await fake.waitForMessages(1, channel);
    expect(reply?.text).toBe('echo: busy');
    const posts = fake.calls.filter((c) => c.method === 'chat.postMessage' && c.params.channel === channel);
    expect(posts.map((c) => c.status)).toEqual([429, 200]);
  });
});
