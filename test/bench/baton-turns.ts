// baton's inbound→reply path (host → turns queue → worker → outbox → channel) with an instant model.
import { startBenchRuntime } from './bench-runtime.ts';
import { percentile } from './stats.ts';

export interface TurnFigures {
  p50Ms: number;
  p99Ms: number;
  /** The median round's baton throughput. */
  turnsPerSec: number;
  /** Per round: baton turns/s over the raw jobs/s measured just before it; the median is the reported ratio. */
  ratios: number[];
  medianRatio: number;
}

export async function measureBatonTurns(
  url: string,
  opts: {
    latencyTurns: number;
    throughputTurns: number;
    conversations: number;
    concurrency: number;
    /** Raw BullMQ jobs/s, measured before each baton round: a shared machine drifts within one run. */
    rawThroughput: () => Promise<number>;
    rounds: number;
  },
): Promise<TurnFigures> {
  const baton = await startBenchRuntime(url, { name: 'turns', concurrency: opts.concurrency });
  const { local } = baton;

  // warm-up: connections, scripts and JIT
  for (let i = 0; i < 20; i++) {
    await local.inject({ chat: 'warm', text: `w${i}` });
    await local.waitForReplies(i + 1, { chat: 'warm' });
  }
  const latencies: number[] = [];
  for (let i = 0; i < opts.latencyTurns; i++) {
    const t0 = performance.now();
    await local.inject({ chat: 'lat', text: `l${i}` });
    await local.waitForReplies(i + 1, { chat: 'lat' });
    latencies.push(performance.now() - t0);
  }

  const burst = async (tag: string, n: number) => {
    const before = local.replies.length;
    const t0 = performance.now();
    const sends: Promise<unknown>[] = [];
    for (let i = 0; i < n; i++) {
      sends.push(local.inject({ chat: `${tag}-${i % opts.conversations}`, text: `t${i}` }));
    }
    await Promise.all(sends);
    await local.waitForReplies(before + n, { timeoutMs: 120_000 });
    return n / ((performance.now() - t0) / 1000);
  };
  // Steady state: the concurrent path compiled before the measure, in other conversations.
  await burst('warm', 1000);
  const rounds: { turnsPerSec: number; ratio: number }[] = [];
  for (let r = 0; r < opts.rounds; r++) {
    const raw = await opts.rawThroughput();
    const turnsPerSec = await burst(`tp${r}`, opts.throughputTurns);
    rounds.push({ turnsPerSec, ratio: turnsPerSec / raw });
  }
  const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)];

  await baton.close();
  return {
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    turnsPerSec: median?.turnsPerSec ?? 0,
    ratios: rounds.map((r) => r.ratio),
    medianRatio: median?.ratio ?? 0,
  };
}
