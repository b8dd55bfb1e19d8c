// live.md §2 step 3 across restarts: while a slow answer streams into its preview, the gateway holding the chat
// goes away (stopped, or crashed and its lease left to lapse) or the worker hands the turn back; the chat still
// ends with the answer exactly once: one visible message whose last version is the whole answer.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { leaseKey } from '../../../../src/fleet/channel-lease.ts';
import {
  KEY,
  lastText,
  startTelegramFleet,
  type TelegramFleet,
  words,
} from '../../../helpers/telegram-fleet.ts';
import { waitFor } from '../../../helpers/wait.ts';

const CHAT = 801;
let f: TelegramFleet;
beforeEach(async () => {
  f = await startTelegramFleet('restart-mid-turn');
});
afterEach(async () => {
  await f.close();
});

/** 20 words, 250 ms apart: about 5 s of streaming, the preview posted after the first second. */
function slowAnswer(times = 1): string {
  const chunks = words('alpha', 20);
  for (let i = 0; i < times; i++)
    f.model.script([{ textChunks: chunks, chunkDelayMs: 250 }], { model: 'main-model' });
  return chunks.join('').trim();
}

/** The bot's messages in the chat that were deleted. */
const deleted = () => f.tg.sent.filter((s) => s.message.chat.id === CHAT && s.deleted);
const previewShown = () => waitFor(() => f.visible(CHAT).length > 0, 30_000, 'the preview');

/** The answer is in the chat, and nothing more can come: no turn left to run, every outbox entry handled. */
async function answered(full: string): Promise<void> {
  await waitFor(() => f.visible(CHAT).some((m) => lastText(m) === full), 60_000, 'the answer');
  await waitFor(async () => (await f.turnsIdle()) && (await f.outboxDrained()), 30_000, 'an idle fleet');
}

function expectOneAnswer(full: string): void {
  const [message, ...others] = f.visible(CHAT);
  expect(others.map(lastText)).toEqual([]);
  expect(lastText(message!)).toBe(full);
  // The preview, edited into the answer: every version on the way was a beginning of it.
  expect(message!.versions.length).toBeGreaterThanOrEqual(2);
  for (const v of message!.versions) expect(full.startsWith(v.trim())).toBe(true);
}

describe('a turn whose chat changes hands mid-answer', () => {
  it('a stopped gateway: the standby takes the chat over and turns the preview into the answer', async () => {
    const a = await f.gateway();
    const b = await f.gateway();
    expect(await f.redis.get(leaseKey(f.prefix, KEY))).toBe(a.role.holder);
    await f.worker();
    const full = slowAnswer();
    f.say(CHAT, 'tell me slowly');
    await previewShown();
    await f.stop(a);
    await answered(full);
    expectOneAnswer(full);
    // The standby found the preview through Redis and edited it: it did not post an answer of its own.
    expect(b.writes()).toBeGreaterThan(0);
  });

  it('a crashed gateway: once its lease lapses the standby takes over, and the preview still becomes the answer', async () => {
    const a = await f.gateway();
    const b = await f.gateway();
    await f.worker();
    const full = slowAnswer();
    f.say(CHAT, 'tell me slowly');
    await previewShown();
    a.crash();
    await answered(full);
    expectOneAnswer(full);
    expect(b.writes()).toBeGreaterThan(0);
  });

  it("a worker handing the turn back: the rerun (a new run) answers once, and the first run's preview is removed", async () => {
    await f.gateway();
    const first = await f.worker();
    // Both runs stream the same answer, so a preview left by the first would be a second (partial) copy of it.
    const full = slowAnswer(2);
    f.say(CHAT, 'tell me slowly');
    await previewShown();
    await f.worker();
    const stoppedAt = Date.now();
    await first.stop(0);
    // Handed back at once to the other worker, not at its next sweep (15 s).
    await f.model.waitForRequests(2, 30_000);
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    await answered(full);
    expectOneAnswer(full);
    expect(deleted()).toHaveLength(1);
  });

  it("a rerun that answers at once turns the first run's preview into the answer", async () => {
    await f.gateway();
    const first = await f.worker();
    const full = slowAnswer();
    f.model.script([{ text: full }], { model: 'main-model' });
    f.say(CHAT, 'tell me slowly');
    await previewShown();
    await f.worker();
    await first.stop(0);
    await answered(full);
    expectOneAnswer(full);
    expect(deleted()).toEqual([]);
  });
});
