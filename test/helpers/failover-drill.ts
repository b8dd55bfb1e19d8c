// The Sentinel failover drill (issue 19): a burst of messages over several conversations through baton's
// runtime, the master SIGKILLed once `killAt` are accepted, then the figures the spec cares about: lost,
// duplicated, out of order. `lagFor` first cuts replication (the replica can no longer re-authenticate),
// so that many messages are acknowledged by the master alone: Redis's asynchronous-replication window.
import { Redis } from 'ioredis';
import type { RuntimeHarness } from './runtime-harness.ts';
import type { SentinelRedis } from './sentinel-redis.ts';
import { waitFor } from './wait.ts';

export interface DrillPlan {
  chats: number;
  perChat: number;
  /** The master dies once this many messages are accepted (plus `lagFor` when replication is cut first). */
  killAt: number;
  /** Cut replication at `killAt` and kill the master `lagFor` accepted messages later (0: no cut). */
  lagFor?: number;
  /** How long to wait for every accepted message's answer before counting what is missing. */
  answerTimeoutMs?: number;
}

export interface DrillFigures {
  accepted: number;
  /** Inject calls that were refused or failed (a platform would deliver them again). */
  refused: number;
  lost: string[];
  /** `echo: <text> ×<n>` for each answer sent more than once. */
  duplicated: string[];
  /** Conversations whose answers arrived out of the order their messages were accepted in. */
  outOfOrder: string[];
  /** From the kill until the sentinel names the replica and it accepts writes. */
  promotionMs: number;
}

async function cutReplication(sentinel: SentinelRedis): Promise<void> {
  const replica = new Redis({ host: '127.0.0.1', port: sentinel.replicaPort });
  const master = new Redis({ host: '127.0.0.1', port: sentinel.masterPort });
  try {
    await replica.config('SET', 'masterauth', 'not-the-password');
    await master.call('CLIENT', 'KILL', 'TYPE', 'replica');
  } finally {
    replica.disconnect();
    master.disconnect();
  }
}

export async function runFailoverDrill(
  h: RuntimeHarness,
  sentinel: SentinelRedis,
  plan: DrillPlan,
): Promise<DrillFigures> {
  const accepted = new Map<string, string[]>();
  let refused = 0;
  let count = 0;
  let killing: Promise<void> | undefined;
  let killedAt = 0;
  const killCount = plan.killAt + (plan.lagFor ?? 0);
  await Promise.all(
    Array.from({ length: plan.chats }, async (_, c) => {
      const chat = `chat-${c}`;
      const mine: string[] = [];
      accepted.set(chat, mine);
      for (let i = 0; i < plan.perChat; i++) {
        const text = `${chat}-${i}`;
        const r = await h.local.inject({ chat, text }).catch(() => ({ accepted: false }));
        if (!r.accepted) {
          refused++;
          continue;
        }
        mine.push(text);
        count++;
        if (plan.lagFor && count === plan.killAt) await cutReplication(sentinel);
        if (count === killCount) {
          killedAt = Date.now();
          killing = sentinel.killMaster();
        }
      }
    }),
  );
  await killing;
  await sentinel.waitForPromotion(60_000);
  const promotionMs = Date.now() - killedAt;

  const all = [...accepted.values()].flat();
  const answered = () => new Set(h.local.replies.map((r) => r.text));
  await waitFor(
    () => {
      const seen = answered();
      return all.every((t) => seen.has(`echo: ${t}`));
    },
    plan.answerTimeoutMs ?? 120_000,
    'every accepted message answered',
  ).catch(() => {}); // what is still missing is counted below

  const counts = new Map<string, number>();
  for (const r of h.local.replies) counts.set(r.text, (counts.get(r.text) ?? 0) + 1);
  const outOfOrder: string[] = [];
  for (const [chat, texts] of accepted) {
    const order = new Map(texts.map((t, i) => [`echo: ${t}`, i]));
    const seen = h.local.replies.filter((r) => r.to.chat === chat).map((r) => order.get(r.text) ?? -1);
    if (seen.some((v, i) => i > 0 && v < (seen[i - 1] ?? 0))) outOfOrder.push(`${chat}: ${seen.join(',')}`);
  }
  return {
    accepted: all.length,
    refused,
    lost: all.filter((t) => !counts.has(`echo: ${t}`)),
    duplicated: [...counts].filter(([, n]) => n > 1).map(([text, n]) => `${text} ×${n}`),
    outOfOrder,
    promotionMs,
  };
}

export const drillLine = (f: DrillFigures): string =>
  `${f.accepted} accepted, ${f.refused} refused, ${f.lost.length} lost, ${f.duplicated.length} duplicated, ` +
  `${f.outOfOrder.length} conversations out of order, promotion ${f.promotionMs} ms after the kill`;
