// The adapter contract beyond text: buttons and their presses, edits, and the typing indicator while a turn runs.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createChannelHost } from '../../../src/channel-host/host.ts';
import { type InboundAction, outboundMessageSchema } from '../../../src/channel-host/types.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../../helpers/runtime-harness.ts';
import { waitFor } from '../../helpers/wait.ts';

let h: RuntimeHarness;
const presses: InboundAction[] = [];
beforeAll(async () => {
  h = await createRuntimeHarness('channel-contract', runtimeToml(), {
    actions: { handle: async (a) => void presses.push(a) },
  });
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  h.server.reset();
  presses.length = 0;
});

describe('adapter contract', () => {
  it('shows the typing indicator in the chat while a slow turn runs, and the reply still arrives', async () => {
    h.server.script([{ delayMs: 2500, text: 'slow answer' }]);
    await h.local.inject({ chat: 'typing-chat', text: 'think hard' });
    // The indicator proves the turn is running: it comes from the worker, through Redis, to this adapter.
    await waitFor(() => h.local.typings.some((t) => t.chat === 'typing-chat'), 20_000, 'a typing indicator');
    const [reply] = await h.local.waitForReplies(1, { chat: 'typing-chat', timeoutMs: 20_000 });
    expect(reply?.text).toBe('slow answer');
    expect(h.local.typings.find((t) => t.chat === 'typing-chat')).toEqual({
      channel: 'local.test',
      chat: 'typing-chat',
    });
  });

  it('skips a malformed typing signal and keeps listening', async () => {
    await h.redis.publish(`${h.prefix}:typing`, '{"channel": 42');
    await h.redis.publish(`${h.prefix}:typing`, JSON.stringify({ channel: 'local.test', chat: '' }));
    await h.redis.publish(`${h.prefix}:typing`, JSON.stringify({ channel: 'local.test', chat: 'after-bad' }));
    await waitFor(() => h.local.typings.some((t) => t.chat === 'after-bad'), 10_000, 'the valid signal');
    expect(h.local.typings.filter((t) => t.chat === '')).toEqual([]);
  });

  it('sends buttons, forwards a press with who pressed, where and on which message, and edits them away', async () => {
    const ref = await h.local.send(
      { channel: 'local.test', chat: 'ops', thread: '7' },
      {
        text: 'Approve?',
        buttons: [
          [
            { id: 'ap:1', label: 'Approve', style: 'primary' },
            { id: 'dn:1', label: 'Deny' },
          ],
        ],
      },
    );
    const result = await h.local.press({ messageId: ref.messageId, actionId: 'dn:1', senderId: 'alice' });
    expect(result).toEqual({ accepted: true, conversation: 'local.test:ops:7' });
    expect(presses).toHaveLength(1);
    expect(presses[0]).toMatchObject({
      kind: 'action',
      channel: 'local.test',
      chat: 'ops',
      thread: '7',
      sender: { id: 'alice' },
      actionId: 'dn:1',
      messageId: ref.messageId,
    });
    await h.local.edit(ref, { text: 'Denied by alice' });
    const sent = h.local.replies.find((r) => r.messageId === ref.messageId);
    expect(sent?.text).toBe('Denied by alice');
    expect(sent?.buttons).toEqual([]);
    expect(sent?.versions).toHaveLength(2);
    // A press on a button the message no longer has never reaches the runtime.
    await expect(h.local.press({ messageId: ref.messageId, actionId: 'dn:1' })).rejects.toThrow(/no button/);
    expect(presses).toHaveLength(1);
  });

  it('rejects a press that misses what makes it a press, naming the field', async () => {
    const host = createChannelHost({
      config: h.config,
      logger: createSilentLogger(),
      ingest: { accept: async () => 'first', kick: async () => {} },
      actions: { handle: async (a) => void presses.push(a) },
    });
    const pressWithoutMessage = {
      kind: 'action',
      channel: 'local.test',
      eventId: 'e1',
      chat: 'c',
      sender: { id: 'u' },
      actionId: 'a',
      receivedAt: new Date().toISOString(),
    };
    const result = await host.receive(pressWithoutMessage);
    expect(result).toMatchObject({ accepted: false, reason: 'invalid' });
    expect(result.accepted ? '' : result.detail).toContain('messageId');
    expect(presses).toEqual([]);
  });

  it('refuses button ids longer than every platform can carry back', () => {
    const ok = outboundMessageSchema.safeParse({
      text: 't',
      buttons: [[{ id: 'x'.repeat(64), label: 'ok' }]],
    });
    const long = outboundMessageSchema.safeParse({
      text: 't',
      buttons: [[{ id: 'é'.repeat(33), label: 'ok' }]],
    });
    expect(ok.success).toBe(true);
    expect(long.success).toBe(false);
  });
});
