// The channel contract, one suite for every adapter: each platform file passes its driver (fake + adapter).
// Chunking and rate-limit retry go through the reply pump: it is what chunks (at the adapter's
// maxMessageLength) and what retries a send the adapter reports as rate limited.
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type ChannelAdapter,
  type ChannelHost,
  conversationId,
  type InboundEvent,
  inboundEventSchema,
  type Recipient,
} from '../../../../src/channel-host/types.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../../helpers/redis.ts';
import { waitFor } from '../../../helpers/wait.ts';
import type { ContractCase, PlatformDriver, WireMessage } from './driver.ts';
import { type OutboxRun, startOutbox } from './outbox.ts';

const DEADLINE_MS = 30_000;
/** Longer than every platform's limit (Discord 2000, Slack 3000, Telegram 4096, local 4000): several chunks. */
const LONG = Array.from({ length: 2000 }, (_, i) => `w${i}`).join(' ');

export function channelContract(driver: PlatformDriver): void {
  describe(`${driver.name}: channel contract`, () => {
    let redis: Redis;
    let prefix: string;
    let adapter: ChannelAdapter;
    let events: InboundEvent[];
    let outbox: OutboxRun | null = null;
    let n = 0;
    const host: ChannelHost = {
      async receive(e) {
        const event = e as InboundEvent;
        events.push(event);
        return { accepted: true, conversation: conversationId(event.channel, event.chat, event.thread) };
      },
    };

    beforeAll(() => {
      redis = testRedis();
      prefix = uniquePrefix(`contract-${driver.name.replace(/\W+/g, '-')}`);
    });
    afterAll(async () => {
      await deletePrefix(redis, prefix);
      await redis.quit();
    });
    beforeEach(async () => {
      events = [];
      n++;
      adapter = await driver.start(host);
    });
    afterEach(async () => {
      await outbox?.close();
      outbox = null;
      await driver.stop();
    });

    /** Registers a case, or skips it with the driver's reason (shown in the test name). */
    const contract = (name: ContractCase, title: string, fn: () => Promise<void>) => {
      const why = driver.cannot?.[name];
      if (why) it.skip(`${title} [skipped: ${why}]`, fn);
      else it(title, fn, 60_000);
    };

    /** The first inbound message with this text, once the adapter handed it over. */
    async function received(text: string) {
      const find = () => events.find((e) => e.kind === 'message' && e.text === text);
      await waitFor(() => find() !== undefined, DEADLINE_MS, `"${text}" at the host`);
      return inboundEventSchema.parse(find());
    }
    const recipientOf = (e: InboundEvent): Recipient => ({
      channel: e.channel,
      chat: e.chat,
      ...(e.thread ? { thread: e.thread } : {}),
    });
    const wire = (id: string): WireMessage => {
      const found = driver.sent().find((m) => m.id === id);
      if (!found) throw new Error(`no message ${id} at the fake`);
      return found;
    };
    const withText = (text: string) => driver.sent().filter((m) => m.text === text);
    const pump = () => {
      outbox = startOutbox(adapter, redis, prefix);
      return outbox;
    };

    contract(
      'inbound text',
      'hands a user text over as a message event, with its chat and sender',
      async () => {
        const injected = await driver.injectText('chat', 'hello from the contract');
        const event = await received('hello from the contract');
        expect(event).toMatchObject({
          kind: 'message',
          channel: adapter.key,
          chat: injected.expect.chat,
          isDirect: injected.expect.isDirect,
          sender: { id: injected.expect.sender.id },
          text: 'hello from the contract',
        });
        expect(event.kind === 'message' && event.thread).toBe(injected.expect.thread ?? undefined);
        await driver.injectText('chat', 'and a second one');
        const second = await received('and a second one');
        expect(second.eventId).not.toBe(event.eventId);
      },
    );

    contract('reply', 'sends a reply to where the user wrote and returns its reference', async () => {
      const injected = await driver.injectText('chat', 'please answer');
      const event = await received('please answer');
      const ref = await adapter.send(recipientOf(event), { text: 'here is the answer' });
      expect(ref).toMatchObject({ channel: adapter.key, chat: event.chat });
      expect(wire(ref.messageId)).toEqual({
        id: ref.messageId,
        place: injected.place,
        text: 'here is the answer',
        buttons: [],
      });
      await expect(adapter.typing(recipientOf(event))).resolves.toBeUndefined();
    });

    contract('thread', 'keeps a thread/topic its own conversation and replies inside it', async () => {
      const inChat = await driver.injectText('chat', 'outside the thread');
      const inThread = await driver.injectText('thread', 'inside the thread');
      const outside = await received('outside the thread');
      const inside = await received('inside the thread');
      expect(inside).toMatchObject({ chat: inThread.expect.chat, isDirect: inThread.expect.isDirect });
      expect(inside.thread).toBe(inThread.expect.thread);
      expect(conversationId(inside.channel, inside.chat, inside.thread)).not.toBe(
        conversationId(outside.channel, outside.chat, outside.thread),
      );
      const ref = await adapter.send(recipientOf(inside), { text: 'answered in the thread' });
      expect(wire(ref.messageId).place).toBe(inThread.place);
      expect(inThread.place).not.toBe(inChat.place);
    });

    contract('chunking', 'sends a reply over maxMessageLength as ordered chunks in the thread', async () => {
      expect(Number.isInteger(adapter.maxMessageLength) && adapter.maxMessageLength > 0).toBe(true);
      expect(LONG.length).toBeGreaterThan(2 * adapter.maxMessageLength);
      const injected = await driver.injectText('thread', 'tell me a lot');
      const event = await received('tell me a lot');
      const run = pump();
      await run.enqueue(recipientOf(event), { text: LONG }, `long-${n}`);
      const chunks = () => driver.sent().filter((m) => m.place === injected.place);
      await waitFor(
        () =>
          chunks()
            .map((m) => m.text)
            .join(' ').length >= LONG.length,
        DEADLINE_MS,
        'every chunk at the fake',
      );
      const texts = chunks().map((m) => m.text);
      expect(texts.length).toBeGreaterThanOrEqual(Math.ceil(LONG.length / adapter.maxMessageLength));
      for (const t of texts) expect([...t].length).toBeLessThanOrEqual(adapter.maxMessageLength);
      expect(texts.join(' ')).toBe(LONG);
      expect(run.outcomes.every((o) => o.ok)).toBe(true);
    });

    contract(
      'button round trip',
      'sends buttons, hands a press over as an action, edits them away',
      async () => {
        await driver.injectText('thread', 'ask me');
        const event = await received('ask me');
        const ref = await adapter.send(recipientOf(event), {
          text: 'Approve?',
          buttons: [
            [
              { id: 'ap:1', label: 'Approve', style: 'primary' },
              { id: 'dn:1', label: 'Deny' },
            ],
          ],
        });
        expect(wire(ref.messageId).buttons).toEqual([
          [
            { id: 'ap:1', label: 'Approve' },
            { id: 'dn:1', label: 'Deny' },
          ],
        ]);
        const { sender } = await driver.press(ref.messageId, 'dn:1');
        await waitFor(() => events.some((e) => e.kind === 'action'), DEADLINE_MS, 'the press at the host');
        const action = inboundEventSchema.parse(events.find((e) => e.kind === 'action'));
        expect(action).toMatchObject({
          kind: 'action',
          channel: adapter.key,
          chat: event.chat,
          sender: { id: sender.id },
          actionId: 'dn:1',
          messageId: ref.messageId,
        });
        expect(action.thread).toBe(event.thread);
        await adapter.edit(ref, { text: 'Denied' });
        expect(wire(ref.messageId)).toMatchObject({ text: 'Denied', buttons: [] });
      },
    );

    contract(
      'edit',
      'replaces a message text and its buttons in place; an unchanged edit is no error',
      async () => {
        const injected = await driver.injectText('chat', 'edit something');
        const event = await received('edit something');
        const ref = await adapter.send(recipientOf(event), { text: 'first version' });
        await adapter.edit(ref, { text: 'second version', buttons: [[{ id: 'ok:1', label: 'OK' }]] });
        expect(wire(ref.messageId)).toMatchObject({
          text: 'second version',
          buttons: [[{ id: 'ok:1', label: 'OK' }]],
        });
        await adapter.edit(ref, { text: 'third version' });
        await adapter.edit(ref, { text: 'third version' });
        expect(wire(ref.messageId)).toMatchObject({ text: 'third version', buttons: [] });
        expect(driver.sent().filter((m) => m.place === injected.place)).toHaveLength(1);
      },
    );

    contract(
      'rate-limit retry',
      'waits out a 429 retry_after and delivers the reply exactly once',
      async () => {
        const injected = await driver.injectText('chat', 'slow down');
        const event = await received('slow down');
        const run = pump();
        driver.rateLimitNextSend(1);
        const enqueuedAt = Date.now();
        await run.enqueue(recipientOf(event), { text: 'after the limit' }, `limited-${n}`);
        await run.enqueue(recipientOf(event), { text: 'the next reply' }, `next-${n}`);
        // The later reply of the same chat has arrived and its send has returned to the pump (the wire sees a
        // message before the adapter's call resolves): the limited one cannot still be on its way.
        await waitFor(
          () =>
            withText('the next reply').length === 1 &&
            run.outcomes.some((o) => o.ok && o.text === 'the next reply'),
          DEADLINE_MS,
          'both replies',
        );
        expect(withText('after the limit').map((m) => m.place)).toEqual([injected.place]);
        expect(driver.sendAttempts('after the limit')).toBe(2);
        const delivered = run.outcomes.find((o) => o.ok && o.text === 'after the limit');
        expect((delivered?.at ?? 0) - enqueuedAt).toBeGreaterThanOrEqual(900);
        // A send the library did not wait out itself is refused as a rate limit, never as a failure.
        for (const o of run.outcomes.filter((o) => !o.ok)) {
          expect(o).toMatchObject({ text: 'after the limit', rateLimitMs: expect.any(Number) });
          expect((o as { rateLimitMs: number }).rateLimitMs).toBeGreaterThanOrEqual(1000);
        }
        expect(run.outcomes.filter((o) => o.ok).map((o) => o.text)).toEqual([
          'after the limit',
          'the next reply',
        ]);
      },
    );

    contract(
      'connection drop',
      'recovers when the platform drops its connection: later messages still arrive',
      async () => {
        await driver.injectText('chat', 'before the cut');
        await received('before the cut');
        await driver.dropConnection();
        const injected = await driver.injectText('chat', 'after the cut');
        const event = await received('after the cut');
        const ref = await adapter.send(recipientOf(event), { text: 'still here' });
        expect(wire(ref.messageId)).toMatchObject({ place: injected.place, text: 'still here' });
      },
    );
  });
}
