// The failover drill (issue 19), on Sentinel or on a Redis Cluster: a burst of messages over several
// conversations through baton's runtime, a master SIGKILLed once `killAt` are accepted, then the figures the
// spec cares about: lost, duplicated, out of order. `lagFor` (Sentinel) first cuts replication (the replica
// can no longer re-authenticate), so that many messages are acknowledged by the master alone: Redis's
// asynchronous-replication window.
import { Redis } from 'ioredis';
import { conversationId } from '../../src/channel-host/types.ts';
import {
  inboxActiveKey,
  inboxKeys,
  keySpaceOf,
  outboxStreamKeyOf,
  TURNS_QUEUE,
  turnsQueuePrefix,
} from '../../src/queue/names.ts';
import { everyPartition } from './key-space.ts';
import type { RuntimeHarness } from './runtime-harness.ts';
import { waitFor } from './wait.ts';

/** What the drill needs of a deployment with a replica: sentinel-redis.ts and redis-cluster.ts both fit. */
export interface FailoverDeployment {
  /** Failovers made so far (0 until the first): one before the kill means a stalled master was failed over. */
  failoverEpoch(): Promise<number>;
  killMaster(): Promise<unknown>;
  waitForPromotion(timeoutMs?: number): Promise<void>;
  /** For `lagFor`: the master and its replica (Sentinel). */
  masterPort?: number;
  replicaPort?: number;
}

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
  /** Messages baton refused (not accepted, not a duplicate): why. */
  refused: string[];
  /**
   * Messages whose first receive already answered `duplicate`: the ingest ran on the old master, its reply was
   * cut off, and ioredis sent it again to the new master, which had it (the adapter then confirms the update).
   */
  duplicateOnFirstReceive: string[];
  /** Receives that failed during the failover and were delivered again, as a platform does: why. */
  redelivered: string[];
  lost: string[];
  /** `echo: <text> ×<n>` for each answer sent more than once. */
  duplicated: string[];
  /** Conversations whose answers arrived out of the order their messages were accepted in. */
  outOfOrder: string[];
  /** Failovers already made when the master was killed (a master stalled past down-after / node-timeout). */
  failoversBeforeKill: number;
  /** From the kill until the replica is promoted and accepts writes. */
  promotionMs: number;
  /** When something is lost: where the conversations stand in Redis (inbox lengths, turn queue, outbox). */
  state: string[];
}

async function cutReplication(deployment: FailoverDeployment): Promise<void> {
  if (!deployment.masterPort || !deployment.replicaPort)
    throw new Error('lagFor needs masterPort and replicaPort');
  const replica = new Redis({ host: '127.0.0.1', port: deployment.replicaPort });
  const master = new Redis({ host: '127.0.0.1', port: deployment.masterPort });
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
  deployment: FailoverDeployment,
  plan: DrillPlan,
): Promise<DrillFigures> {
  const accepted = new Map<string, string[]>();
  const refused: string[] = [];
  const redelivered: string[] = [];
  const duplicateOnFirstReceive: string[] = [];
  /** Every message in the order it was sent per conversation, accepted or not (for the order check). */
  const sent = new Map<string, string[]>();
  let count = 0;
  let killing: Promise<void> | undefined;
  let killedAt = 0;
  let failoversBeforeKill = 0;
  const killCount = plan.killAt + (plan.lagFor ?? 0);
  await Promise.all(
    Array.from({ length: plan.chats }, async (_, c) => {
      const chat = `chat-${c}`;
      const mine: string[] = [];
      accepted.set(chat, mine);
      const order: string[] = [];
      sent.set(chat, order);
      for (let i = 0; i < plan.perChat; i++) {
        const text = `${chat}-${i}`;
        order.push(text);
        // A platform delivers an update again until baton confirms it (Telegram's offset, Slack's retries):
        // a failed receive is retried with the same event id, which the inbox deduplicates.
        let r: { accepted: boolean; reason?: string } | undefined;
        for (let attempt = 0; !r && attempt < 20; attempt++) {
          r = await h.local.inject({ chat, text, eventId: text }).catch((e: unknown) => {
            redelivered.push(`${text}: ${e instanceof Error ? e.message : String(e)}`);
            return undefined;
          });
        }
        if (r?.reason === 'duplicate' && !redelivered.some((x) => x.startsWith(`${text}: `))) {
          duplicateOnFirstReceive.push(text);
        }
        if (!r || (!r.accepted && r.reason !== 'duplicate')) {
          refused.push(`${text}: ${r?.reason ?? 'failed 20 times'}`);
          continue;
        }
        mine.push(text);
        count++;
        if (plan.lagFor && count === plan.killAt) await cutReplication(deployment);
        if (count === killCount) {
          killedAt = Date.now();
          killing = deployment.failoverEpoch().then((epoch) => {
            failoversBeforeKill = epoch;
            return deployment.killMaster().then(() => {});
          });
        }
      }
    }),
  );
  await killing;
  await deployment.waitForPromotion(60_000);
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
  for (const [chat, texts] of sent) {
    const order = new Map(texts.map((t, i) => [`echo: ${t}`, i]));
    const seen = h.local.replies.filter((r) => r.to.chat === chat).map((r) => order.get(r.text) ?? -1);
    if (seen.some((v, i) => i > 0 && v < (seen[i - 1] ?? 0))) outOfOrder.push(`${chat}: ${seen.join(',')}`);
  }
  const lost = all.filter((t) => !counts.has(`echo: ${t}`));
  return {
    accepted: all.length,
    refused,
    lost,
    redelivered,
    duplicateOnFirstReceive,
    state: lost.length ? await redisState(h, [...accepted.keys()]) : [],
    duplicated: [...counts].filter(([, n]) => n > 1).map(([text, n]) => `${text} ×${n}`),
    outOfOrder,
    promotionMs,
    failoversBeforeKill,
  };
}

/** Inbox length per conversation, the turn queue's lists and the outbox length, read from the master. */
async function redisState(h: RuntimeHarness, chats: string[]): Promise<string[]> {
  const { redis } = h;
  const space = keySpaceOf(h.config.redis);
  const inbox = inboxKeys(space);
  const lines: string[] = [];
  for (const chat of chats) {
    const conv = conversationId('local.test', chat);
    lines.push(
      `${chat}: inbox ${await redis.llen(inbox.inbox(conv))}, seq ${await redis.get(inbox.seq(conv))}`,
    );
  }
  // Summed over the partitions: one turns queue, busy set and outbox stream each.
  const q = (n: number) => `${turnsQueuePrefix(space, n)}:${TURNS_QUEUE}`;
  const sum = (count: (n: number) => Promise<number>) => everyPartition(space, count).catch(() => -1);
  lines.push(
    `turns: wait ${await sum((n) => redis.llen(`${q(n)}:wait`))}, ` +
      `active ${await sum((n) => redis.llen(`${q(n)}:active`))}, ` +
      `delayed ${await sum((n) => redis.zcard(`${q(n)}:delayed`))}, ` +
      `prioritized ${await sum((n) => redis.zcard(`${q(n)}:prioritized`))}, ` +
      `inbox-active ${await sum((n) => redis.scard(inboxActiveKey(space, n)))}, ` +
      `outbox ${await sum((n) => redis.xlen(outboxStreamKeyOf(space, 'local.test', n)))}`,
  );
  return lines;
}

export const drillLine = (f: DrillFigures): string =>
  `${f.accepted} accepted, ${f.refused.length} refused, ${f.redelivered.length} redelivered, ${f.duplicateOnFirstReceive.length} resent ingests, ${f.lost.length} lost, ${f.duplicated.length} duplicated, ` +
  `${f.outOfOrder.length} conversations out of order, promotion ${f.promotionMs} ms after the kill` +
  (f.failoversBeforeKill ? ` (a failover had happened ${f.failoversBeforeKill}× before the kill)` : '');
