// Channel approvals in the originating chat, end to end on the runtime (approvals.md §3, §5, §9-§12): the worker
// waits, the gateway posts the card, a press or a token reply decides, the model is told what happened.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DENIED_BY_USER, runtimeDenialText } from '../../../src/approval/approval-messages.ts';
import { TURN_ABORTED } from '../../../src/channel-host/channel-messages.ts';
import { ChannelRateLimitError, conversationId } from '../../../src/channel-host/types.ts';
import { runningTurnsKey } from '../../../src/fleet/running-turns.ts';
import { spaceOf } from '../../helpers/key-space.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../../helpers/runtime-harness.ts';
import { waitFor } from '../../helpers/wait.ts';
import { cardIn, press, replyIn, scriptWrites, settledCard, toldModel } from './approval-helpers.ts';

const LATE = '⚠️ This approval request has expired or was already decided.';
const UNAUTHORISED = '⚠️ You are not authorized to answer this approval request.';

// Only alice may talk to (and answer for) main on the local channel.
let h: RuntimeHarness;
beforeAll(async () => {
  h = await createRuntimeHarness('origin-approvals', runtimeToml('', ['alice']));
});
afterAll(() => h.close());
beforeEach(() => {
  h.server.reset();
  h.local.replies.length = 0;
  h.local.notices.length = 0;
});

const say = (chat: string, text: string) => h.local.inject({ chat, text, senderId: 'alice' });

describe('approvals in the originating chat', () => {
  it('approve: the card asks in the chat, the press is acked, the tool runs and the card loses its buttons', async () => {
    scriptWrites(h, 'a1.txt');
    await say('o1', 'write it');
    const card = await cardIn(h, 'o1');
    expect(card.text).toContain('Tool: file_write');
    expect(card.text).toContain('Args: path: a1.txt, content: hi');
    expect(card.text).not.toContain('Agent:'); // the originating chat's prompt has no Agent: line
    expect(await press(h, card, 'approve', 'alice')).toMatchObject({ accepted: true, notice: '✅ Approved' });
    expect(await toldModel(h)).toMatch(/^Wrote 2 bytes to .*a1\.txt$/);
    expect(await settledCard(card)).toContain('✅ Approved by alice');
    await replyIn(h, 'o1', 'done');
  });

  it('deny: the model is told `Denied by user.` and the tool never runs', async () => {
    scriptWrites(h, 'd1.txt');
    await say('o2', 'write it');
    const card = await cardIn(h, 'o2');
    expect((await press(h, card, 'deny', 'alice')).accepted && h.local.notices[0]?.text).toBe('❌ Denied');
    expect(await toldModel(h)).toBe(`Error: ${DENIED_BY_USER}`);
    expect(await settledCard(card)).toContain('❌ Denied by alice');
    await replyIn(h, 'o2', 'done');
  });

  it('"Always" covers the rest of the run, and the next message asks again', async () => {
    scriptWrites(h, 'w1.txt', 'w2.txt');
    await say('o3', 'write twice');
    await press(h, await cardIn(h, 'o3'), 'always', 'alice');
    await replyIn(h, 'o3', 'done');
    expect(await toldModel(h, 2)).toMatch(/^Wrote 2 bytes to .*w2\.txt$/); // no second card for the same run
    expect(h.local.replies.filter((r) => r.versions[0]?.buttons?.length)).toHaveLength(1);

    scriptWrites(h, 'w3.txt');
    await say('o3', 'write again');
    const next = await cardIn(h, 'o3', 2);
    expect(next.text).toContain('w3.txt');
    await press(h, next, 'approve', 'alice');
    await replyIn(h, 'o3', 'done', 2);
  });

  it('an unauthorised presser changes nothing and gets the §11 text; a late press gets the late text', async () => {
    scriptWrites(h, 'u1.txt');
    await say('o4', 'write it');
    const card = await cardIn(h, 'o4');
    expect(await press(h, card, 'approve', 'mallory')).toMatchObject({ notice: UNAUTHORISED });
    expect(card.buttons.length).toBeGreaterThan(0); // still pending
    expect(await press(h, card, 'deny', 'alice')).toMatchObject({ notice: '❌ Denied' });
    expect(await toldModel(h)).toBe(`Error: ${DENIED_BY_USER}`);
    await settledCard(card);
    expect(await press(h, card, 'approve', 'alice', true)).toMatchObject({ notice: LATE });
    expect(card.text).toContain('❌ Denied by alice');
    await replyIn(h, 'o4', 'done');
  });

  it('/stop while the card is pending: the card shows the run was cancelled and the tool never ran', async () => {
    scriptWrites(h, 's1.txt');
    await say('o5', 'write it');
    const card = await cardIn(h, 'o5');
    const conv = conversationId('local.test', 'o5');
    await waitFor(
      async () => (await h.redis.hexists(runningTurnsKey(spaceOf(h.prefix), conv), conv)) === 1,
      10_000,
      'running',
    );
    await say('o5', '/stop');
    expect(await settledCard(card)).toContain('🚫 Cancelled: the run that asked has ended');
    await replyIn(h, 'o5', TURN_ABORTED);
    expect(h.server.requests).toHaveLength(1); // the model never saw a tool result
    expect(await press(h, card, 'approve', 'alice', true)).toMatchObject({ notice: LATE });
  });

  it('text mode: when the card with buttons cannot be posted, a token reply answers it and is not a turn', async () => {
    h.local.failNextSends(1, () => new Error('buttons refused'));
    scriptWrites(h, 't1.txt');
    await say('o6', 'write it');
    await waitFor(
      () => h.local.replies.some((r) => r.text.startsWith('APPROVAL REQUIRED [')),
      20_000,
      'text prompt',
    );
    const prompt = h.local.replies.find((r) => r.text.startsWith('APPROVAL REQUIRED ['))!;
    const token = /\[([a-z0-9]{6})\]/.exec(prompt.text)![1]!;
    expect(prompt.text).toContain(`Reply: "${token} yes", "${token} no", or "${token} always"`);
    expect(prompt.buttons).toEqual([]);
    await say('o6', `${token.toUpperCase()} yes please`);
    expect(await toldModel(h)).toMatch(/^Wrote 2 bytes to .*t1\.txt$/);
    await replyIn(h, 'o6', '✅ Approved');
    await replyIn(h, 'o6', 'done');
    // The reply was consumed: the model saw only the first message.
    expect(h.server.requests).toHaveLength(2);
    // Answered again, the token gets the late text; an unknown token is an ordinary message.
    await say('o6', `${token} no`);
    await replyIn(h, 'o6', LATE);
  });

  it('a rate-limited card is sent again after retry_after, still with its buttons', async () => {
    h.local.failNextSends(1, () => new ChannelRateLimitError(300));
    scriptWrites(h, 'rl.txt');
    await say('o8', 'write it');
    await press(h, await cardIn(h, 'o8'), 'approve', 'alice');
    expect(await toldModel(h)).toMatch(/^Wrote 2 bytes to .*rl\.txt$/);
    await replyIn(h, 'o8', 'done');
  });

  it('undeliverable: when no prompt can be posted, the model is told the runtime denied it', async () => {
    h.local.failNextSends(2, () => new Error('chat gone'));
    scriptWrites(h, 'x1.txt');
    await say('o7', 'write it');
    expect(await toldModel(h)).toBe(`Error: ${runtimeDenialText('file_write')}`);
    await replyIn(h, 'o7', 'done');
  });
});
