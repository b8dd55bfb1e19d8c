// The Telegram adapter on real grammy against the fake Bot API: parsing, skipping, rate limits, stop.
// (The runtime path, through Redis and the worker, is in telegram.test.ts.)
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTelegramAdapter } from '../../../channels/telegram/telegram-adapter.ts';
import {
  type ChannelAdapter,
  type ChannelHost,
  ChannelRateLimitError,
  type InboundEvent,
} from '../../../src/channel-host/types.ts';
import { createLogger, createSilentLogger } from '../../../src/core/logger.ts';
import { type FakeTelegram, startFakeTelegram } from '../../fakes/telegram-server.ts';
import { user } from '../../fakes/telegram-wire.ts';
import { waitFor } from '../../helpers/wait.ts';

let tg: FakeTelegram;
let adapter: ChannelAdapter;
let events: InboundEvent[];
/** Records what the adapter hands over; `fail` makes receive throw (Redis away) that many times. */
let fail: number;
let attempts = 0;
/** receive waits for the gate of an event's text (and records it) before taking it. */
const gates = new Map<string, Promise<void>>();
let entered: string[] = [];
const host: ChannelHost = {
  async receive(e) {
    attempts++;
    const text = (e as { text?: string }).text ?? '';
    entered.push(text);
    await gates.get(text);
    if (text === 'never stored') throw new Error('redis unavailable');
    if (fail > 0) {
      fail--;
      throw new Error('redis unavailable');
    }
    events.push(e as InboundEvent);
    return { accepted: true, conversation: 'c' };
  },
};

beforeEach(async () => {
  events = [];
  entered = [];
  gates.clear();
  fail = 0;
  tg = await startFakeTelegram({ token: 'T1' });
  adapter = createTelegramAdapter({
    alias: 'home',
    botToken: 'T1',
    apiBaseUrl: `${tg.url}/`,
    logger: process.env.TG_DEBUG ? createLogger({ level: 'debug' }) : createSilentLogger(),
  });
  await adapter.start(host);
});
afterEach(async () => {
  await adapter.stop();
  await tg.close();
});

const textOf = (e: InboundEvent) => (e.kind === 'message' ? e.text : `action ${e.actionId}`);
const waitEvents = (n: number) => waitFor(() => events.length >= n, 20_000, `${n} inbound events`);

describe('telegram adapter', () => {
  it('maps private, group and topic messages, with mentions and replies to the bot', async () => {
    tg.injectMessage({ chat: 7, from: user(7, 'alice'), text: 'hello' });
    tg.injectMessage({ chat: -100, from: 8, text: 'no mention here' });
    tg.injectMessage({ chat: -100, from: 8, text: 'hey @Baton_Test_Bot look', thread: 42 });
    const mine = await adapter.send({ channel: 'telegram.home', chat: '-100' }, { text: 'x' });
    const botMessage = tg.sentTo(-100)[0]?.message;
    tg.injectMessage({ chat: -100, from: 8, text: 'replying', replyTo: botMessage });
    await waitEvents(4);
    expect(mine.messageId).toBe(String(botMessage?.message_id));
    expect(
      events.map((e) => e.kind === 'message' && [e.chat, e.thread, e.isDirect, e.addressedToBot]),
    ).toEqual([
      ['7', undefined, true, false],
      ['-100', undefined, false, false],
      ['-100', '42', false, true],
      ['-100', undefined, false, true],
    ]);
    expect(events[0]).toMatchObject({
      channel: 'telegram.home',
      sender: { id: '7', username: 'alice' },
      text: 'hello',
    });
  });

  it('skips bots, edits, joins and malformed updates, takes a sticker and a captioned photo as files, keeps working', async () => {
    tg.injectMessage({ chat: 7, from: user(99, 'otherbot', true), text: 'beep' });
    tg.injectUpdate({
      edited_message: { message_id: 1, date: 1, chat: { id: 7, type: 'private' }, text: 'x' },
    });
    tg.injectMessage({ chat: -100, from: 8, extra: { new_chat_members: [user(9)] } });
    tg.injectMessage({ chat: 7, from: 7, extra: { sticker: { file_id: 's' } } });
    tg.injectUpdate({ message: { message_id: 'nope', chat: null } });
    tg.injectUpdate({ callback_query: { id: 'q', data: 'x' } });
    tg.injectUpdate({ some_future_kind: { a: 1 } });
    tg.injectMessage({ chat: 7, from: 7, extra: { caption: 'look at this', photo: [{ file_id: 'p' }] } });
    tg.injectMessage({ chat: 7, from: 7, text: 'still here' });
    await waitEvents(3);
    expect(events.map((e) => e.kind === 'message' && [e.text, e.attachments?.map((a) => a.kind)])).toEqual([
      ['', ['image']],
      ['look at this', ['image']],
      ['still here', undefined],
    ]);
    // Every update was taken off the queue: the skipped ones are confirmed too.
    await waitFor(() => tg.pending(0, 100).length === 0, 20_000, 'all updates confirmed');
  });

  it('answers a button press at once and hands it over as an action', async () => {
    const ref = await adapter.send(
      { channel: 'telegram.home', chat: '-100', thread: '5' },
      {
        text: 'Approve?',
        buttons: [
          [
            { id: 'ap:1', label: 'Yes', style: 'primary' },
            { id: 'dn:1', label: 'No' },
          ],
        ],
      },
    );
    const sent = tg.sentTo(-100, 5)[0];
    expect(sent?.message.reply_markup?.inline_keyboard).toEqual([
      [
        { text: 'Yes', callback_data: 'ap:1', style: 'primary' },
        { text: 'No', callback_data: 'dn:1' },
      ],
    ]);
    const { id } = tg.injectCallback({ message: sent!.message, from: user(8, 'bob'), data: 'dn:1' });
    await waitEvents(1);
    // Answered once the host returns: wait for the answer itself, not the event reaching the host.
    await waitFor(
      () => tg.calls.some((c) => c.method === 'answerCallbackQuery'),
      20_000,
      'the callback query answered',
    );
    expect(tg.calls.find((c) => c.method === 'answerCallbackQuery')?.params).toMatchObject({
      callback_query_id: id,
    });
    expect(events[0]).toMatchObject({
      kind: 'action',
      eventId: id,
      chat: '-100',
      thread: '5',
      actionId: 'dn:1',
      messageId: ref.messageId,
      sender: { id: '8', username: 'bob' },
    });
    await adapter.edit(ref, { text: 'Denied' });
    expect(tg.sentTo(-100)[0]?.message.reply_markup).toBeUndefined();
    await adapter.edit(ref, { text: 'Denied' }); // "message is not modified" is not an error
  });

  it('sends typing to the topic', async () => {
    await adapter.typing({ channel: 'telegram.home', chat: '-100', thread: '5' });
    expect(tg.typings).toEqual([{ chat_id: -100, action: 'typing', message_thread_id: 5 }]);
  });

  it('waits out a short retry_after itself and passes a long one on as ChannelRateLimitError', async () => {
    tg.failNext('sendMessage', { status: 429, retryAfter: 1 });
    await adapter.send({ channel: 'telegram.home', chat: '7' }, { text: 'after a short wait' });
    const tries = tg.calls.filter((c) => c.method === 'sendMessage');
    expect(tries).toHaveLength(2);
    expect((tries[1]?.at ?? 0) - (tries[0]?.at ?? 0)).toBeGreaterThanOrEqual(900);

    tg.failNext('sendMessage', { status: 429, retryAfter: 60 });
    const err = await adapter.send({ channel: 'telegram.home', chat: '7' }, { text: 'x' }).catch((e) => e);
    expect(err).toBeInstanceOf(ChannelRateLimitError);
    expect((err as ChannelRateLimitError).retryAfterMs).toBe(60_000);
  });

  it('keeps an update unconfirmed until the host has it, retrying while the host fails', async () => {
    fail = 2;
    const { updateId } = tg.injectMessage({ chat: 7, from: 7, text: 'survives' });
    await waitEvents(1);
    expect(events[0]).toMatchObject({ text: 'survives' });
    await waitFor(() => tg.confirmedOffset > updateId, 20_000, 'the update confirmed');
  });

  it('a redelivered update is handed over again with the same event id (the inbox dedupes)', async () => {
    const { updateId, message } = tg.injectMessage({ chat: 7, from: 7, text: 'once' });
    await waitEvents(1);
    tg.injectUpdate({ message }, { updateId, redeliver: true });
    await waitEvents(2);
    expect(events[1]?.eventId).toBe(events[0]?.eventId);
  });

  it('recovers from a getUpdates 500 and a dropped long poll without losing updates', async () => {
    await tg.waitForCall((c) => c.method === 'getUpdates' && Number(c.params.timeout) > 0);
    tg.failNext('getUpdates', { status: 500 });
    tg.dropConnections();
    tg.injectMessage({ chat: 7, from: 7, text: 'after the cut' });
    await waitEvents(1);
    expect(events[0]).toMatchObject({ text: 'after the cut' });
  });

  it('hands a batch over concurrently across chats, in order within a chat, confirming it once all are in', async () => {
    const first = Promise.withResolvers<void>();
    const slow = Promise.withResolvers<void>();
    gates.set('first', first.promise);
    gates.set('a1', slow.promise);
    tg.injectMessage({ chat: 1, from: 1, text: 'first' });
    await waitFor(() => entered.includes('first'), 20_000, 'the first update handed over');
    // No poll is held while `first` is handled: the next three come as one batch.
    const a1 = tg.injectMessage({ chat: 7, from: 7, text: 'a1' });
    tg.injectMessage({ chat: 8, from: 8, text: 'b1' });
    const a2 = tg.injectMessage({ chat: 7, from: 7, text: 'a2' });
    first.resolve();
    await waitFor(
      () => events.some((e) => textOf(e) === 'b1'),
      20_000,
      'chat 8 handed over while chat 7 waits',
    );
    expect(entered).not.toContain('a2');
    expect(tg.confirmedOffset).toBeLessThanOrEqual(a1.updateId);
    slow.resolve();
    await waitEvents(4);
    expect(events.map(textOf)).toEqual(['first', 'b1', 'a1', 'a2']);
    await waitFor(() => tg.confirmedOffset > a2.updateId, 20_000, 'the batch confirmed');
  });

  it('stop confirms what was handled and leaves the rest for the next poller', async () => {
    const { updateId } = tg.injectMessage({ chat: 7, from: 7, text: 'handled' });
    await waitEvents(1);
    await adapter.stop();
    expect(tg.confirmedOffset).toBe(updateId + 1);
    const later = tg.injectMessage({ chat: 7, from: 7, text: 'for the next one' });
    expect(tg.pending(tg.confirmedOffset, 100).map((u) => u.update_id)).toEqual([later.updateId]);
  });
});

describe('telegram adapter stopping while the host fails', () => {
  it('leaves the update it could not hand over unconfirmed', async () => {
    fail = Number.POSITIVE_INFINITY;
    attempts = 0;
    const { updateId } = tg.injectMessage({ chat: 7, from: 7, text: 'not yet stored' });
    await waitFor(() => attempts >= 2, 20_000, 'failed receive attempts');
    await adapter.stop();
    expect(tg.confirmedOffset).toBeLessThanOrEqual(updateId);
    expect(tg.pending(tg.confirmedOffset, 100).map((u) => u.update_id)).toContain(updateId);
    fail = 0;
  });

  it('leaves a batch unconfirmed when one chat of it could not be handed over', async () => {
    const first = Promise.withResolvers<void>();
    gates.set('first', first.promise);
    tg.injectMessage({ chat: 1, from: 1, text: 'first' });
    await waitFor(() => entered.includes('first'), 20_000, 'the first update handed over');
    const stuck = tg.injectMessage({ chat: 7, from: 7, text: 'never stored' });
    tg.injectMessage({ chat: 8, from: 8, text: 'stored' });
    first.resolve();
    await waitFor(() => events.some((e) => textOf(e) === 'stored'), 20_000, 'the other chat handed over');
    await waitFor(() => entered.filter((t) => t === 'never stored').length >= 2, 20_000, 'retries');
    await adapter.stop();
    expect(tg.confirmedOffset).toBeLessThanOrEqual(stuck.updateId);
    expect(tg.pending(tg.confirmedOffset, 100).map((u) => u.update_id)).toContain(stuck.updateId);
  });
});

describe('telegram adapter with a rejected token', () => {
  it('logs the 401 as a clear error and stops the channel without throwing', async () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'error',
      destination: { write: (l: string) => void lines.push(l) },
    });
    const bad = createTelegramAdapter({ alias: 'bad', botToken: 'WRONG', apiBaseUrl: tg.url, logger });
    await bad.start(host);
    expect(lines.join('')).toContain('Telegram rejected the bot token (401 Unauthorized)');
    expect(tg.calls.filter((c) => c.token === 'WRONG').map((c) => c.method)).toEqual(['getMe']);
    await bad.stop();
  });
});
