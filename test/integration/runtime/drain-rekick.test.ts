// A drain job that emptied its inbox re-kicks its conversation only for an event accepted while it was finishing
// (the owed mark): one accepted after it was removed has the gateway's kick, and a second add would only meet
// that job (BullMQ drops it as a duplicate, after a script run and a worker wake-up for nothing).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationId } from '../../../src/channel-host/types.ts';
import { conversationJobId } from '../../../src/queue/conversation-inbox.ts';
import { inboxKeys } from '../../../src/queue/names.ts';
import { spaceOf } from '../../helpers/key-space.ts';
import {
  createRuntimeHarness,
  echoResponder,
  type RuntimeHarness,
  runtimeToml,
} from '../../helpers/runtime-harness.ts';

// Without early kicks: this harness counts the adds of the host's kick and the completion's re-kick alone.
let h: RuntimeHarness;
// With them (as `baton start` runs): the worker notes a drained conversation idle before BullMQ removes its job,
// so a message that comes sooner sends an early kick that meets the job; the owed mark must still bring it a turn.
let hinted: RuntimeHarness;
beforeAll(async () => {
  const noHints = { noteIdle() {}, takeIdle: () => false };
  h = await createRuntimeHarness('drain-rekick', runtimeToml(''), { idleHints: noHints });
  h.server.respond(echoResponder());
  hinted = await createRuntimeHarness('drain-rekick-hinted', runtimeToml(''));
  hinted.server.respond(echoResponder());
});
afterAll(async () => {
  await h.close();
  await hinted.close();
});

/** Adds of the turns queue for a job id, and those BullMQ dropped as duplicates. */
async function adds(on: RuntimeHarness, jobId: string): Promise<{ added: number; duplicated: number }> {
  const events = await on.redis.xrange(`{${on.prefix}:p0}:turns:events`, '-', '+');
  const of = (name: string) => events.filter(([, f]) => f[1] === name && f.includes(jobId)).length;
  return { added: of('added'), duplicated: of('duplicated') };
}

/** `n` messages to one chat, each sent as soon as the previous reply is out (its drain job still finishing). */
async function backToBack(on: RuntimeHarness, chat: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await on.local.inject({ chat, text: `m${i}` });
    await on.local.waitForReplies(i + 1, { chat });
  }
  expect(on.local.replies.filter((r) => r.to.chat === chat).map((r) => r.text)).toEqual(
    Array.from({ length: n }, (_, i) => `echo: m${i}`),
  );
  // No mark is left behind: each one set was taken by the completion it was owed by.
  const conversation = conversationId('local.test', chat);
  expect(await on.redis.exists(inboxKeys(spaceOf(on.prefix, 1)).kickOwed(conversation))).toBe(0);
}

describe('the re-kick of a drained conversation', () => {
  it('sends each message of a back-to-back conversation one drain job, whichever kick gets there', async () => {
    const n = 40;
    await backToBack(h, 'seq', n);
    const { added, duplicated } = await adds(h, conversationJobId(conversationId('local.test', 'seq')));
    expect(duplicated).toBe(0);
    expect(added).toBeGreaterThanOrEqual(1);
    expect(added).toBeLessThanOrEqual(n);
  });

  it('answers every message in order when early kicks meet a finishing job', async () => {
    await backToBack(hinted, 'seq', 40);
  });
});
