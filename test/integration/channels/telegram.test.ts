// Telegram end to end in one process: the fake Bot API ↔ real grammy adapter ↔ gateway, real Redis queues,
// worker, fake model. Routing, mention_only and [peer_groups] are the real ones from the TOML.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { InboundAction } from '../../../src/channel-host/types.ts';
import { type FakeTelegram, startFakeTelegram } from '../../fakes/telegram-server.ts';
import { user } from '../../fakes/telegram-wire.ts';
import { askedOf } from '../../helpers/model-requests.ts';
import {
  createRuntimeHarness,
  echoResponder,
  type RuntimeHarness,
  runtimeToml,
} from '../../helpers/runtime-harness.ts';
import { waitFor } from '../../helpers/wait.ts';

const LONG = Array.from({ length: 2000 }, (_, i) => `w${i}`).join(' ');
let tg: FakeTelegram;
let h: RuntimeHarness;
const presses: InboundAction[] = [];

const toml = (url: string) =>
  runtimeToml(`
[channels.telegram.home]
enabled = true
bot_token = "T1"
api_base_url = "${url}/"
mention_only = true

[peer_groups.tg]
channel = "telegram"
agents = ["main"]
external_peers = ["7", "@carol"]
`);

/** Requests whose newest user message is `text` (one per turn that answered it). */
const turnsFor = (text: string) => h.server.requests.filter((r) => askedOf(r) === text).length;
const repliesIn = (chat: number, count: number, thread?: number) =>
  waitFor(() => tg.sentTo(chat, thread).length >= count, 30_000, `${count} replies in ${chat}`).then(() =>
    tg.sentTo(chat, thread).map((s) => s.message.text),
  );

beforeAll(async () => {
  tg = await startFakeTelegram({ token: 'T1' });
  h = await createRuntimeHarness('telegram', toml(tg.url), {
    platformChannels: true,
    actions: { handle: async (a) => void presses.push(a) },
  });
});
afterAll(async () => {
  await h?.close();
  await tg?.close();
});
beforeEach(() => {
  h.server.reset();
  h.server.respond(echoResponder((text) => (text === 'think slowly' ? 2500 : 0)));
});

describe('telegram channel', () => {
  it('answers a private chat, and a mention in a forum topic in that topic; an unaddressed group message starts nothing', async () => {
    tg.injectMessage({ chat: 7, from: user(7, 'dave'), text: 'hello bot' });
    expect(await repliesIn(7, 1)).toEqual(['echo: hello bot']);

    const forum = { id: -1001, type: 'supergroup' as const, is_forum: true };
    tg.injectMessage({ chat: forum, from: 7, text: 'just chatting', thread: 3 });
    tg.injectMessage({ chat: forum, from: user(12, 'Carol'), text: '@baton_test_bot status?', thread: 3 });
    expect(await repliesIn(-1001, 1, 3)).toEqual(['echo: @baton_test_bot status?']);
    expect(tg.sentTo(-1001)[0]?.message.message_thread_id).toBe(3);
    expect(turnsFor('just chatting')).toBe(0);
  });

  it('sends a reply longer than 4096 characters as ordered chunks that reassemble it', async () => {
    h.server.respond(() => ({ text: LONG }));
    tg.injectMessage({ chat: 21, from: 7, text: 'tell me a lot' });
    const chunks = () => tg.sentTo(21).map((s) => s.message.text ?? '');
    await waitFor(() => chunks().join(' ').length >= LONG.length, 30_000, 'every chunk');
    expect(chunks().length).toBe(3);
    expect(chunks().every((c) => c.length <= 4096)).toBe(true);
    expect(chunks().join(' ')).toBe(LONG);
  });

  it('round-trips a button: press at the fake → action handler → edit removes the buttons', async () => {
    const [adapter] = h.adapters;
    const ref = await adapter!.send(
      { channel: 'telegram.home', chat: '-1002', thread: '9' },
      { text: 'Run it?', buttons: [[{ id: 'ap:9', label: 'Approve', style: 'primary' }]] },
    );
    const sent = tg.sentTo(-1002, 9)[0]!;
    tg.injectCallback({ message: sent.message, from: user(7, 'dave'), data: 'ap:9' });
    await waitFor(() => presses.length === 1, 20_000, 'the press at the action handler');
    expect(presses[0]).toMatchObject({
      channel: 'telegram.home',
      chat: '-1002',
      thread: '9',
      actionId: 'ap:9',
    });
    expect(presses[0]?.messageId).toBe(ref.messageId);
    // The press is answered once the handler returns: wait for that answer itself, not the handler's call.
    await waitFor(
      () => tg.calls.some((c) => c.method === 'answerCallbackQuery'),
      20_000,
      'the callback query answered',
    );
    await adapter!.edit(ref, { text: 'Approved by dave' });
    expect(sent.message.reply_markup).toBeUndefined();
    expect(sent.versions.map((v) => v.text)).toEqual(['Run it?', 'Approved by dave']);
  });

  it('shows typing in the chat while a slow turn runs', async () => {
    tg.injectMessage({ chat: 22, from: 7, text: 'think slowly' });
    await tg.waitForCall((c) => c.method === 'sendChatAction' && c.params.chat_id === 22, 20_000, 'typing');
    expect(await repliesIn(22, 1)).toEqual(['echo: think slowly']);
  });

  it('starts no model request for an unauthorised sender', async () => {
    tg.injectMessage({ chat: 666, from: user(666, 'mallory'), text: 'let me in' });
    tg.injectMessage({ chat: 23, from: 7, text: 'after mallory' });
    await repliesIn(23, 1);
    expect(turnsFor('let me in')).toBe(0);
    expect(tg.sentTo(666)).toEqual([]);
  });

  it('skips malformed and unexpected updates and keeps answering', async () => {
    tg.injectUpdate({ message: { message_id: 'x' } });
    tg.injectUpdate({ edited_message: { message_id: 1, chat: { id: 24, type: 'private' }, text: 'edit' } });
    tg.injectUpdate({ poll: { id: 'p' } });
    tg.injectMessage({ chat: 24, from: user(5, 'somebot', true), text: 'beep' });
    tg.injectMessage({ chat: 24, from: 7, text: 'real one' });
    expect(await repliesIn(24, 1)).toEqual(['echo: real one']);
  });

  it('gives one turn for the same update delivered twice', async () => {
    const { updateId, message } = tg.injectMessage({ chat: 25, from: 7, text: 'dup me' });
    await repliesIn(25, 1);
    tg.injectUpdate({ message }, { updateId, redeliver: true });
    tg.injectMessage({ chat: 25, from: 7, text: 'after the dup' });
    // Same conversation, in order: had the redelivery been taken, its turn would come before this one.
    expect(await repliesIn(25, 2)).toEqual(['echo: dup me', 'echo: after the dup']);
    expect(turnsFor('dup me')).toBe(1);
  });

  it('recovers from 500s and cut connections on getUpdates and sendMessage with nothing lost', async () => {
    await tg.waitForCall((c) => c.method === 'getUpdates' && Number(c.params.timeout) > 0);
    tg.failNext('getUpdates', { status: 500 });
    tg.dropConnections();
    tg.failNext('sendMessage', { status: 500 });
    tg.failNext('sendMessage', { drop: true });
    tg.injectMessage({ chat: 26, from: 7, text: 'through the storm' });
    expect(await repliesIn(26, 1)).toEqual(['echo: through the storm']);
    const tries = tg.calls.filter((c) => c.method === 'sendMessage' && c.params.chat_id === 26);
    expect(tries.length).toBeGreaterThanOrEqual(3);
  });

  it('honours retry_after: short waits in grammy auto-retry, then the reply pump once its attempts are spent', async () => {
    tg.failNext('sendMessage', { status: 429, retryAfter: 1 }, 3);
    tg.injectMessage({ chat: 27, from: 7, text: 'slow down' });
    expect(await repliesIn(27, 1)).toEqual(['echo: slow down']);
    const tries = tg.calls.filter((c) => c.method === 'sendMessage' && c.params.chat_id === 27);
    expect(tries).toHaveLength(4);
    for (let i = 1; i < tries.length; i++) {
      expect((tries[i]?.at ?? 0) - (tries[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(900);
    }
  });
});
