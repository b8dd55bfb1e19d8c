// The failover drill of issue 19 (spec/config.md §15.1.1): baton's gateway and two workers on a Sentinel
// deployment (master + replica), a burst of 500 messages over 10 conversations, the master SIGKILLed
// mid-burst. The sentinel promotes the replica; every accepted message is answered, none twice, in order per
// conversation, and the fleet keeps answering new messages after the promotion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRuntimeHarness,
  echoResponder,
  type RuntimeHarness,
  runtimeToml,
} from '../../helpers/runtime-harness.ts';
import { type SentinelRedis, startSentinelRedis } from '../../helpers/sentinel-redis.ts';
import { waitFor } from '../../helpers/wait.ts';

const CHATS = 10;
const PER_CHAT = 50;
/** The master dies once this many messages have been accepted (of CHATS × PER_CHAT). */
const KILL_AT = 150;

let sentinel: SentinelRedis;
let h: RuntimeHarness;
beforeAll(async () => {
  sentinel = await startSentinelRedis();
  h = await createRuntimeHarness(
    'failover',
    runtimeToml(`[redis]\n${sentinel.toml}\n[worker]\nconcurrency = 8\n`),
    { workers: 2 },
  );
}, 60_000);
afterAll(async () => {
  await h?.close();
  await sentinel?.close();
});

interface Drill {
  accepted: Map<string, string[]>;
  refused: string[];
  failoverMs: number;
}

async function burstWithKill(): Promise<Drill> {
  const accepted = new Map<string, string[]>();
  const refused: string[] = [];
  let count = 0;
  let killing: Promise<void> | undefined;
  let killedAt = 0;
  const chats = Array.from({ length: CHATS }, (_, c) => `chat-${c}`);
  await Promise.all(
    chats.map(async (chat) => {
      const mine: string[] = [];
      accepted.set(chat, mine);
      for (let i = 0; i < PER_CHAT; i++) {
        const text = `${chat}-${i}`;
        const r = await h.local.inject({ chat, text }).catch((e: unknown) => ({ accepted: false, error: e }));
        if (!r.accepted) {
          refused.push(text);
          continue;
        }
        mine.push(text);
        if (++count === KILL_AT) {
          killedAt = Date.now();
          killing = sentinel.killMaster();
        }
      }
    }),
  );
  await killing;
  await sentinel.waitForPromotion(60_000);
  return { accepted, refused, failoverMs: Date.now() - killedAt };
}

describe('Sentinel failover drill', () => {
  it('loses no accepted message, answers none twice, keeps order, and answers after the promotion', async () => {
    h.server.respond(echoResponder());
    const drill = await burstWithKill();
    const all = [...drill.accepted.values()].flat();
    const answered = () => new Set(h.local.replies.map((r) => r.text));
    // Every accepted message answered (or the deadline passes and the figures below say what is missing).
    await waitFor(
      () => all.every((t) => answered().has(`echo: ${t}`)),
      120_000,
      'every accepted message answered',
    ).catch(() => {});
    // The fleet keeps answering after the promotion.
    for (let i = 0; i < 3; i++) await h.local.inject({ chat: 'after', text: `after-${i}` });
    const after = await h.local.waitForReplies(3, { chat: 'after', timeoutMs: 60_000 });

    const counts = new Map<string, number>();
    for (const r of h.local.replies) counts.set(r.text, (counts.get(r.text) ?? 0) + 1);
    const lost = all.filter((t) => !counts.has(`echo: ${t}`));
    const duplicated = [...counts].filter(([, n]) => n > 1).map(([text, n]) => `${text} ×${n}`);
    const outOfOrder: string[] = [];
    for (const [chat, texts] of drill.accepted) {
      const order = new Map(texts.map((t, i) => [`echo: ${t}`, i]));
      const seen = h.local.replies.filter((r) => r.to.chat === chat).map((r) => order.get(r.text) ?? -1);
      if (seen.some((v, i) => i > 0 && v < (seen[i - 1] ?? 0))) outOfOrder.push(`${chat}: ${seen.join(',')}`);
    }
    console.log(
      `failover drill: ${all.length} accepted, ${drill.refused.length} refused, ${lost.length} lost, ` +
        `${duplicated.length} duplicated, ${outOfOrder.length} conversations out of order, ` +
        `promotion seen ${drill.failoverMs} ms after the kill`,
    );
    expect(all.length + drill.refused.length).toBe(CHATS * PER_CHAT);
    expect(lost).toEqual([]);
    expect(duplicated).toEqual([]);
    expect(outOfOrder).toEqual([]);
    expect(after.map((r) => r.text)).toEqual(['echo: after-0', 'echo: after-1', 'echo: after-2']);
  }, 240_000);
});
