// Slack HTTP mode through the gateway's real HTTP server: signed events and interactivity at
// POST /slack/<alias>/events, the real runtime on Redis, replies through the fake Slack Web API.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { conversationId, type InboundAction } from '../../../src/channel-host/types.ts';
import { inboxKeys } from '../../../src/queue/names.ts';
import { postSlackEvent, postSlackInteraction } from '../../fakes/slack-http.ts';
import { blockActions, eventCallback, messageEvent, nextTs } from '../../fakes/slack-payloads.ts';
import { type FakeSlackServer, startFakeSlack } from '../../fakes/slack-server.ts';
import { createRuntimeHarness, echoResponder, type RuntimeHarness } from '../../helpers/runtime-harness.ts';
import { slackToml } from './slack-fixture.ts';

const SECRET = 'slack-signing-secret-test';
const API_TOKEN = 'ops-bearer-token-test';
let fake: FakeSlackServer;
let h: RuntimeHarness;
let url: string;
const presses: InboundAction[] = [];
let nextChannel = 0;
const freshChannel = () => `CH${String(++nextChannel).padStart(4, '0')}`;

beforeAll(async () => {
  fake = await startFakeSlack();
  const toml = slackToml('web', fake.apiUrl, `signing_secret = "${SECRET}"`, 'xoxb-http');
  h = await createRuntimeHarness('slack-http', toml, {
    platformChannels: true,
    // A bearer token on the ops API: the webhook must still be reachable (it is signed instead).
    ops: { apiToken: API_TOKEN },
    actions: { handle: async (a) => void presses.push(a) },
  });
  url = `${h.opsUrl}/slack/web/events`;
});
afterAll(async () => {
  await h?.close();
  await fake?.close();
});
beforeEach(() => {
  h.server.reset();
  h.server.respond(echoResponder());
  presses.length = 0;
});

const userMessage = (channel: string, text: string) => eventCallback(messageEvent({ channel, text }));

describe('slack HTTP mode', () => {
  it('serves no Socket Mode: no app token, and auth.test with the bot token', () => {
    expect(fake.callsOf('apps.connections.open')).toEqual([]);
    expect(fake.callsOf('auth.test')[0]?.token).toBe('xoxb-http');
  });

  it('answers the url_verification challenge', async () => {
    const res = await postSlackEvent(url, SECRET, {
      token: 'verification-token',
      challenge: 'c-3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P',
      type: 'url_verification',
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({
      challenge: 'c-3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P',
    });
  });

  it('turns a signed message event into one turn, replied in its thread via the Web API', async () => {
    const channel = freshChannel();
    const payload = userMessage(channel, 'hello over http');
    const res = await postSlackEvent(url, SECRET, payload);
    expect(res.status).toBe(200);
    const [reply] = await fake.waitForMessages(1, channel);
    const ts = (payload.event as { ts: string }).ts;
    expect(reply).toMatchObject({ channel, thread_ts: ts, text: 'echo: hello over http' });
    expect(fake.callsOf('chat.postMessage').find((c) => c.params.channel === channel)?.token).toBe(
      'xoxb-http',
    );
    expect(h.server.requests).toHaveLength(1);
  });

  it('rejects a bad signature and a stale timestamp with 401, starting no turn', async () => {
    const channel = freshChannel();
    const forged = await postSlackEvent(url, SECRET, userMessage(channel, 'forged'), {
      signature: `v0=${'0'.repeat(64)}`,
    });
    expect(forged.status).toBe(401);
    const wrongKey = await postSlackEvent(url, 'not-the-secret', userMessage(channel, 'wrong key'));
    expect(wrongKey.status).toBe(401);
    const stale = await postSlackEvent(url, SECRET, userMessage(channel, 'stale'), {
      timestamp: Math.floor(Date.now() / 1000) - 6 * 60,
    });
    expect(stale.status).toBe(401);
    const future = await postSlackEvent(url, SECRET, userMessage(channel, 'future'), {
      timestamp: Math.floor(Date.now() / 1000) + 6 * 60,
    });
    expect(future.status).toBe(401);
    // A good one after them: had any of the rejected ones been taken, its turn would come first.
    expect((await postSlackEvent(url, SECRET, userMessage(channel, 'genuine'))).status).toBe(200);
    await fake.waitForMessages(1, channel);
    expect(fake.messages.filter((m) => m.channel === channel).map((m) => m.text)).toEqual(['echo: genuine']);
    expect(h.server.requests).toHaveLength(1);
  });

  it('gives a retried delivery (x-slack-retry-num, same event) one turn', async () => {
    const channel = freshChannel();
    const payload = userMessage(channel, 'once');
    expect((await postSlackEvent(url, SECRET, payload)).status).toBe(200);
    expect((await postSlackEvent(url, SECRET, payload, { retryNum: 1 })).status).toBe(200);
    // The same message delivered again as its app_mention twin (another event_id, same channel and ts).
    const mention = eventCallback({ ...(payload.event as object), type: 'app_mention' });
    expect((await postSlackEvent(url, SECRET, mention, { retryNum: 2 })).status).toBe(200);
    expect((await postSlackEvent(url, SECRET, userMessage(channel, 'after'))).status).toBe(200);
    await fake.waitForMessages(2, channel);
    expect(fake.messages.filter((m) => m.channel === channel).map((m) => m.text)).toEqual([
      'echo: once',
      'echo: after',
    ]);
    expect(h.server.requests).toHaveLength(2);
  });

  it('answers 500 while the event cannot reach the inbox, and takes the redelivery once', async () => {
    const channel = freshChannel();
    const payload = userMessage(channel, 'not lost');
    const ts = (payload.event as { ts: string }).ts;
    // A real Redis error on the hand-over: the conversation's inbox key holds a string, so the ingest script
    // refuses the event (and writes nothing, the dedupe mark included).
    const inbox = inboxKeys(h.space).inbox(conversationId('slack.web', channel, ts));
    await h.redis.set(inbox, 'not a list');
    const first = await postSlackEvent(url, SECRET, payload);
    expect(first.status).toBe(500);
    await h.redis.del(inbox);
    // Slack redelivers what got no 2xx; the first try never got in, so this one is the turn.
    expect((await postSlackEvent(url, SECRET, payload, { retryNum: 1 })).status).toBe(200);
    expect((await postSlackEvent(url, SECRET, payload, { retryNum: 2 })).status).toBe(200);
    await fake.waitForMessages(1, channel);
    expect((await postSlackEvent(url, SECRET, userMessage(channel, 'after'))).status).toBe(200);
    await fake.waitForMessages(2, channel);
    expect(fake.messages.filter((m) => m.channel === channel).map((m) => m.text)).toEqual([
      'echo: not lost',
      'echo: after',
    ]);
  });

  it('fetches a shared file once when Slack retries the event during the download and after it', async () => {
    const channel = freshChannel();
    const pdf = fake.files.host({ name: 'r.pdf', bytes: '%PDF-1.4 r', mimetype: 'application/pdf' });
    fake.files.botToken = 'xoxb-http';
    const payload = eventCallback(messageEvent({ channel, text: 'read it', files: [pdf] }));
    const release = fake.files.gate(String(pdf.id));
    const first = postSlackEvent(url, SECRET, payload);
    await fake.waitFor(() => fake.files.downloadsOf(String(pdf.id)).length === 1, 'the download');
    // Slack gave up waiting and retries while the first delivery is still downloading.
    const retried = postSlackEvent(url, SECRET, payload, { retryNum: 1 });
    release();
    expect((await retried).status).toBe(200);
    await first;
    await fake.waitForMessages(1, channel);
    expect((await postSlackEvent(url, SECRET, payload, { retryNum: 2 })).status).toBe(200);
    expect(fake.files.downloadsOf(String(pdf.id))).toMatchObject([{ authorization: 'Bearer xoxb-http' }]);
    expect(h.server.requests).toHaveLength(1);
  });

  it('hands a form-encoded button press to the action handler', async () => {
    const channel = freshChannel();
    const messageTs = nextTs();
    const payload = blockActions(
      { channel, messageTs, threadTs: '111.222', actionId: 'ap:7', user: 'U0ALICE', username: 'alice' },
      fake.apiUrl,
    );
    const res = await postSlackInteraction(url, SECRET, payload);
    expect(res.status).toBe(200);
    await fake.waitFor(() => presses.length === 1, 'the press at the action handler');
    expect(presses[0]).toMatchObject({
      kind: 'action',
      channel: 'slack.web',
      chat: channel,
      thread: '111.222',
      sender: { id: 'U0ALICE', username: 'alice' },
      actionId: 'ap:7',
      messageId: messageTs,
    });
    // A press on a long message: past the ops API's 16 KiB body limit, which does not apply here.
    const big = blockActions(
      { channel, messageTs, actionId: 'dn:7', user: 'U0ALICE', text: 'x'.repeat(40_000) },
      fake.apiUrl,
    );
    expect((await postSlackInteraction(url, SECRET, big)).status).toBe(200);
    await fake.waitFor(() => presses.length === 2, 'the second press at the action handler');
    expect(presses[1]?.actionId).toBe('dn:7');
    // A forged press goes nowhere.
    const forged = await postSlackInteraction(url, 'wrong', { ...payload, trigger_id: 'other' });
    expect(forged.status).toBe(401);
  });

  it('keeps the bearer token on the ops API itself', async () => {
    const res = await fetch(`${h.opsUrl}/api/sessions`);
    expect(res.status).toBe(401);
  });
});
