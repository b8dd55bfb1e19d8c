// Telegram webhook mode through the gateway's real HTTP server: updates POSTed to /telegram/<alias>/webhook with
// the secret token, the real runtime on Redis, replies through the fake Bot API; two gateways serve it at once.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { InboundAction } from '../../../src/channel-host/types.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createChannelAdapters } from '../../../src/roles/channel-adapters.ts';
import { type GatewayRole, startGatewayRole } from '../../../src/roles/gateway-role.ts';
import { fileMessage } from '../../fakes/telegram-files.ts';
import { type FakeTelegram, startFakeTelegram } from '../../fakes/telegram-server.ts';
import { messageUpdate, newUpdateId, postTelegramUpdate } from '../../fakes/telegram-webhook.ts';
import { user } from '../../fakes/telegram-wire.ts';
import { askedOf } from '../../helpers/model-requests.ts';
import {
  createRuntimeHarness,
  echoResponder,
  type RuntimeHarness,
  runtimeToml,
} from '../../helpers/runtime-harness.ts';
import { loadTestConfig } from '../../helpers/test-config.ts';
import { waitFor } from '../../helpers/wait.ts';

const SECRET = 'tg-webhook-secret-test_1';
const API_TOKEN = 'ops-bearer-token-test';
const PUBLIC_URL = 'https://bot.example.test/baton/telegram/hook/webhook';
let tg: FakeTelegram;
let h: RuntimeHarness;
let url: string;
const presses: InboundAction[] = [];
let nextChat = 0;
const freshChat = () => 4200 + ++nextChat;

const toml = (apiUrl: string) =>
  runtimeToml(`
[channels.telegram.hook]
enabled = true
bot_token = "T1"
api_base_url = "${apiUrl}"
webhook_url = "${PUBLIC_URL}"
webhook_secret = "${SECRET}"

[peer_groups.tg]
channel = "telegram.hook"
agents = ["main"]
external_peers = ["*"]
`);

const turnsFor = (text: string) => h.server.requests.filter((r) => askedOf(r) === text).length;
const repliesIn = (chat: number, count: number) =>
  waitFor(() => tg.sentTo(chat).length >= count, 30_000, `${count} replies in ${chat}`).then(() =>
    tg.sentTo(chat).map((s) => s.message.text),
  );

beforeAll(async () => {
  tg = await startFakeTelegram({ token: 'T1' });
  h = await createRuntimeHarness('tg-webhook', toml(tg.url), {
    platformChannels: true,
    // A bearer token on the ops API: the webhook must still be reachable (the secret token guards it).
    ops: { apiToken: API_TOKEN },
    actions: { handle: async (a) => void presses.push(a) },
  });
  url = `${h.opsUrl}/telegram/hook/webhook`;
});
afterAll(async () => {
  await h?.close();
  await tg?.close();
});
beforeEach(() => {
  h.server.reset();
  h.server.respond(echoResponder());
});

describe('telegram webhook mode', () => {
  it('sets the webhook with the configured URL and secret at start, and never polls', () => {
    const set = tg.calls.filter((c) => c.method === 'setWebhook');
    expect(set.map((c) => [c.params.url, c.params.secret_token])).toEqual([[PUBLIC_URL, SECRET]]);
    expect(tg.calls.some((c) => c.method === 'getUpdates')).toBe(false);
  });

  it('turns an update with the right secret into one turn, replied with sendMessage', async () => {
    const chat = freshChat();
    const res = await postTelegramUpdate(
      url,
      SECRET,
      messageUpdate({ chat, from: 7, text: 'hello webhook' }),
    );
    expect(res.status).toBe(200);
    expect(await repliesIn(chat, 1)).toEqual(['echo: hello webhook']);
    expect(turnsFor('hello webhook')).toBe(1);
  });

  it('refuses a wrong or missing secret with 401, starting no turn', async () => {
    const chat = freshChat();
    const wrong = await postTelegramUpdate(
      url,
      'not-the-secret',
      messageUpdate({ chat, from: 7, text: 'forged' }),
    );
    expect(wrong.status).toBe(401);
    const missing = await postTelegramUpdate(
      url,
      undefined,
      messageUpdate({ chat, from: 7, text: 'unsigned' }),
    );
    expect(missing.status).toBe(401);
    // A good one after them: had either been taken, its turn would come first.
    expect(
      (await postTelegramUpdate(url, SECRET, messageUpdate({ chat, from: 7, text: 'genuine' }))).status,
    ).toBe(200);
    expect(await repliesIn(chat, 1)).toEqual(['echo: genuine']);
    expect(turnsFor('forged') + turnsFor('unsigned')).toBe(0);
  });

  it('gives the same update delivered twice one turn', async () => {
    const chat = freshChat();
    const update = messageUpdate({ chat, from: 7, text: 'only once' });
    expect((await postTelegramUpdate(url, SECRET, update)).status).toBe(200);
    expect((await postTelegramUpdate(url, SECRET, update)).status).toBe(200);
    expect(
      (await postTelegramUpdate(url, SECRET, messageUpdate({ chat, from: 7, text: 'after' }))).status,
    ).toBe(200);
    expect(await repliesIn(chat, 2)).toEqual(['echo: only once', 'echo: after']);
    expect(turnsFor('only once')).toBe(1);
  });

  it('downloads a photo posted twice (a webhook retry) once, and gives it one turn', async () => {
    const chat = freshChat();
    const file = tg.files.addFile({
      bytes: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1]),
      path: 'photos/hook.jpg',
    });
    const { message } = messageUpdate({ chat, from: 7, text: '' });
    const { text: _text, ...photoMessage } = message;
    const update = {
      update_id: newUpdateId(),
      message: { ...photoMessage, ...fileMessage('photo', file, { caption: 'twice' }) },
    };
    expect((await postTelegramUpdate(url, SECRET, update)).status).toBe(200);
    expect((await postTelegramUpdate(url, SECRET, update)).status).toBe(200);
    expect(
      (await postTelegramUpdate(url, SECRET, messageUpdate({ chat, from: 7, text: 'after' }))).status,
    ).toBe(200);
    expect(await repliesIn(chat, 2)).toHaveLength(2);
    expect(turnsFor('after')).toBe(1);
    expect(h.server.requests.filter((r) => askedOf(r).includes('twice'))).toHaveLength(1);
    expect(tg.files.downloads('photos/hook.jpg')).toBe(1);
  });

  it('hands a button press to the action handler and answers the callback query', async () => {
    const chat = freshChat();
    const update = {
      update_id: newUpdateId(),
      callback_query: {
        id: 'cbq-webhook-1',
        from: user(7, 'alice'),
        chat_instance: 'ci-1',
        message: { message_id: 77, date: 0, chat: { id: chat, type: 'private' } },
        data: 'ap:9',
      },
    };
    expect((await postTelegramUpdate(url, SECRET, update)).status).toBe(200);
    await waitFor(() => presses.length === 1, 20_000, 'the press at the action handler');
    expect(presses[0]).toMatchObject({ channel: 'telegram.hook', chat: String(chat), actionId: 'ap:9' });
    expect(
      tg.calls.some(
        (c) => c.method === 'answerCallbackQuery' && c.params.callback_query_id === 'cbq-webhook-1',
      ),
    ).toBe(true);
  });

  it('is served by a second gateway at the same time (no channel lease)', async () => {
    const { config, load: loaded } = loadTestConfig(h.configText);
    const logger = createSilentLogger();
    let second: GatewayRole | null = null;
    try {
      second = await startGatewayRole({
        config: { ...config, gateway: { ...config.gateway, port: 0, api_token: API_TOKEN } },
        ops: loaded,
        logger,
        redis: h.redis,
        adapters: await createChannelAdapters(config, logger),
      });
      // Both set the same webhook (idempotent).
      expect(tg.calls.filter((c) => c.method === 'setWebhook').map((c) => c.params.url)).toEqual([
        PUBLIC_URL,
        PUBLIC_URL,
      ]);
      const chatA = freshChat();
      const chatB = freshChat();
      const viaSecond = `${second.opsUrl}/telegram/hook/webhook`;
      expect(
        (await postTelegramUpdate(viaSecond, SECRET, messageUpdate({ chat: chatA, from: 7, text: 'to B' })))
          .status,
      ).toBe(200);
      expect(
        (await postTelegramUpdate(url, SECRET, messageUpdate({ chat: chatB, from: 7, text: 'to A' }))).status,
      ).toBe(200);
      expect(await repliesIn(chatA, 1)).toEqual(['echo: to B']);
      expect(await repliesIn(chatB, 1)).toEqual(['echo: to A']);
    } finally {
      await second?.close(1000);
    }
    // The first gateway keeps serving after the second stopped.
    const chat = freshChat();
    expect(
      (await postTelegramUpdate(url, SECRET, messageUpdate({ chat, from: 7, text: 'still here' }))).status,
    ).toBe(200);
    expect(await repliesIn(chat, 1)).toEqual(['echo: still here']);
    expect(tg.calls.some((c) => c.method === 'deleteWebhook')).toBe(false);
  });

  it('keeps the bearer token on the ops API itself', async () => {
    expect((await fetch(`${h.opsUrl}/api/sessions`)).status).toBe(401);
  });
});
