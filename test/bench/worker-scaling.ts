// Throughput with one and with two `baton worker` processes, against a model that answers after 20 ms.
import { benchConfigText } from './bench-runtime.ts';
import { startWorkerFleet } from './worker-fleet.ts';

async function turnsPerSec(
  url: string,
  workers: number,
  opts: { turns: number; warmupTurns: number; concurrency: number; modelMs: number },
) {
  const fleet = await startWorkerFleet({
    name: 'scale',
    workers,
    modelMs: opts.modelMs,
    configText: (prefix, dataDir, model) => benchConfigText(url, prefix, dataDir, model, opts.concurrency),
  });
  try {
    // Steady state: every worker process has compiled its hot paths before the measure.
    await fleet.burst('warm', opts.warmupTurns);
    return opts.turns / (await fleet.burst('s', opts.turns));
  } finally {
    await fleet.close();
  }
}

export async function measureWorkerScaling(url: string) {
  const opts = { turns: 800, warmupTurns: 300, concurrency: 4, modelMs: 20 };
  const one = await turnsPerSec(url, 1, opts);
  const two = await turnsPerSec(url, 2, opts);
  return { oneWorkerTurnsPerSec: one, twoWorkersTurnsPerSec: two, ratio: two / one };
}
