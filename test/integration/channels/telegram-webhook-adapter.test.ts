// The Telegram adapter in webhook mode on real grammy against the fake Bot API: setWebhook at start, the route's
// secret check, and a 200 only once the update is in the inbox. (Over the gateway's HTTP server: telegram-webhook.test.ts.)
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTelegramAdapter } from '../../../channels/telegram/telegram-adapter.ts';
import type {
  ChannelAdapter,
  ChannelHost,
  ChannelHttpRoute,
  InboundEvent,
  ReceiveResult,
} from '../../../src/channel-host/types.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { type FakeTelegram, startFakeTelegram } from '../../fakes/telegram-server.ts';
import { messageUpdate, webhookRequest } from '../../fakes/telegram-webhook.ts';
import { waitFor } from '../../helpers/wait.ts';

const SECRET = 'webhook-secret_42';
const URL_ = 'https://bot.example.test/telegram/home/webhook';
let tg: FakeTelegram;
let adapter: ChannelAdapter;
let route: ChannelHttpRoute;
let events: InboundEvent[];
/** When set, receive waits for it (an inbox write still under way). */
let gate: Promise<void> | null;
let failing: boolean;
let attempts: number;
const host: ChannelHost = {
  async receive(e): Promise<ReceiveResult> {
    attempts++;
    if (failing) throw new Error('redis unavailable');
    await gate;
    events.push(e as InboundEvent);
    return { accepted: true, conversation: 'c' };
  },
};

function build(deliverTimeoutMs?: number) {
  return createTelegramAdapter({
    alias: 'home',
    botToken: 'T1',
    apiBaseUrl: tg.url,
    logger: createSilentLogger(),
    webhook: { url: URL_, secret: SECRET, ...(deliverTimeoutMs ? { deliverTimeoutMs } : {}) },
  });
}

beforeEach(async () => {
  events = [];
  gate = null;
  failing = false;
  attempts = 0;
  tg = await startFakeTelegram({ token: 'T1' });
  adapter = build();
  await adapter.start(host);
  route = adapter.routes?.()[0] as ChannelHttpRoute;
});
afterEach(async () => {
  await adapter.stop();
  await tg.close();
});

describe('telegram adapter, webhook mode', () => {
  it('sets the webhook with its URL, secret and update kinds, needs no lease, and never polls', async () => {
    expect(adapter.singleConsumer).toBe(false);
    expect(route).toMatchObject({ method: 'POST', path: '/telegram/home/webhook' });
    const set = tg.calls.filter((c) => c.method === 'setWebhook');
    expect(set).toHaveLength(1);
    expect(set[0]?.params).toEqual({
      url: URL_,
      secret_token: SECRET,
      allowed_updates: ['message', 'channel_post', 'callback_query'],
    });
    expect(tg.webhook?.url).toBe(URL_);
    expect(tg.calls.map((c) => c.method)).not.toContain('getUpdates');
    expect(tg.calls.map((c) => c.method)).not.toContain('deleteWebhook');
  });

  it('answers 200 only once the update is in the inbox', async () => {
    let open!: () => void;
    gate = new Promise((r) => {
      open = r;
    });
    let answered: number | null = null;
    const res = route
      .handle(webhookRequest(SECRET, messageUpdate({ chat: 7, from: 7, text: 'hello' })))
      .then((r) => {
        answered = r.status;
        return r;
      });
    await waitFor(() => attempts === 1, 10_000, 'the inbox write to begin');
    expect(answered).toBeNull();
    open();
    expect((await res).status).toBe(200);
    expect(events).toMatchObject([{ kind: 'message', chat: '7', text: 'hello' }]);
  });

  it('refuses a wrong or missing secret with 401, handing nothing over', async () => {
    const update = messageUpdate({ chat: 7, from: 7, text: 'forged' });
    expect((await route.handle(webhookRequest('wrong-secret', update))).status).toBe(401);
    expect((await route.handle(webhookRequest(undefined, update))).status).toBe(401);
    expect((await route.handle(webhookRequest(`${SECRET}x`, update))).status).toBe(401);
    expect(attempts).toBe(0);
  });

  it('answers 503 when the update cannot reach the inbox in time (Telegram redelivers)', async () => {
    await adapter.stop();
    adapter = build(1500);
    await adapter.start(host);
    route = adapter.routes?.()[0] as ChannelHttpRoute;
    failing = true;
    const res = await route.handle(webhookRequest(SECRET, messageUpdate({ chat: 7, from: 7, text: 'x' })));
    expect(res.status).toBe(503);
    expect(attempts).toBeGreaterThanOrEqual(1);
  });

  it('answers 503 once stopped, and 400 for a body that is not an update object', async () => {
    expect((await route.handle({ ...webhookRequest(SECRET, {}), body: Buffer.from('nope') })).status).toBe(
      400,
    );
    expect((await route.handle(webhookRequest(SECRET, 42))).status).toBe(400);
    await adapter.stop();
    const res = await route.handle(webhookRequest(SECRET, messageUpdate({ chat: 7, from: 7, text: 'late' })));
    expect(res.status).toBe(503);
    expect(attempts).toBe(0);
    // A stopped adapter leaves the webhook in place for the other gateways.
    expect(tg.calls.map((c) => c.method)).not.toContain('deleteWebhook');
  });

  it('retries setWebhook while Telegram fails with 5xx', async () => {
    await adapter.stop();
    tg.failNext('setWebhook', { status: 502, description: 'Bad Gateway' }, 2);
    const before = tg.calls.filter((c) => c.method === 'setWebhook').length;
    adapter = build();
    await adapter.start(host);
    await tg.waitForCalls((c) => c.method === 'setWebhook', before + 3, 20_000);
    route = adapter.routes?.()[0] as ChannelHttpRoute;
    const res = await route.handle(webhookRequest(SECRET, messageUpdate({ chat: 7, from: 7, text: 'up' })));
    expect(res.status).toBe(200);
  });
});
