// The Cluster failover drill of issue 19 (spec/config.md §15.1.1): baton's gateway and two workers on a local Redis
// Cluster of 3 masters with a replica each, a burst of 500 messages over 10 conversations, a master SIGKILLed
// mid-burst. Its replica is promoted; every accepted message is answered, none twice, in order per conversation,
// and the fleet keeps answering new messages after the promotion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drillLine, runFailoverDrill } from '../../helpers/failover-drill.ts';
import { type RedisCluster, startRedisCluster } from '../../helpers/redis-cluster.ts';
import {
  createRuntimeHarness,
  echoResponder,
  type RuntimeHarness,
  runtimeToml,
} from '../../helpers/runtime-harness.ts';

let cluster: RedisCluster;
let h: RuntimeHarness;
beforeAll(async () => {
  cluster = await startRedisCluster({ replicas: true });
  h = await createRuntimeHarness('cluster-failover', runtimeToml(`[worker]\nconcurrency = 8\n`), {
    workers: 2,
    redisTarget: cluster.target,
  });
}, 90_000);
afterAll(async () => {
  await h?.close();
  await cluster?.close();
});

describe('Cluster failover drill', () => {
  it('loses no accepted message, answers none twice, keeps order, and answers after the promotion', async () => {
    h.server.respond(echoResponder());
    const figures = await runFailoverDrill(h, cluster, { chats: 10, perChat: 50, killAt: 150 });
    console.log(`cluster failover drill: ${drillLine(figures)}`);
    if (figures.redelivered.length) console.log(`redelivered: ${figures.redelivered.join('; ')}`);
    if (figures.lost.length) console.log(`lost: ${figures.lost.join(' ')}\n${figures.state.join('\n')}`);
    for (let i = 0; i < 3; i++) await h.local.inject({ chat: 'after', text: `after-${i}` });
    const after = await h.local.waitForReplies(3, { chat: 'after', timeoutMs: 60_000 });

    expect(figures.failoversBeforeKill).toBe(0);
    expect(figures.refused).toEqual([]);
    expect(figures.accepted).toBe(500);
    expect(figures.lost).toEqual([]);
    expect(figures.duplicated).toEqual([]);
    expect(figures.outOfOrder).toEqual([]);
    expect(after.map((r) => r.text)).toEqual(['echo: after-0', 'echo: after-1', 'echo: after-2']);
  }, 240_000);
});
