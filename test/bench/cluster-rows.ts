// The bench table's rows for the Cluster measure (cluster-throughput.ts): medians of the rounds.
import type { ClusterThroughput } from './cluster-throughput.ts';
import { laneMedian } from './cluster-throughput.ts';
import { round } from './stats.ts';

export interface ClusterRow {
  measure: string;
  value: number;
  unit: string;
  ratio: string;
}

export function clusterRows(r: ClusterThroughput): ClusterRow[] {
  const one = laneMedian(r.single);
  const cl = laneMedian(r.cluster);
  const w = `${r.options.workers} worker processes, ${r.options.modelMs} ms model`;
  return [
    {
      measure: `one Redis, ${w}`,
      value: round(one.turnsPerSec),
      unit: 'turns/s',
      ratio: `Redis CPU ${one.nodeCpuPct.map((p) => `${round(p)} %`).join(', ')} of a core; ${round(one.redisCpuMsPerTurn)} ms CPU per turn`,
    },
    {
      measure: `3-master Cluster, ${w}`,
      value: round(cl.turnsPerSec),
      unit: 'turns/s',
      ratio: `${round(cl.turnsPerSec / one.turnsPerSec)}× one Redis; node CPU ${cl.nodeCpuPct.map((p) => `${round(p)} %`).join(', ')} of a core; ${round(cl.redisCpuMsPerTurn)} ms CPU per turn over all nodes (median of ${r.cluster.length} alternated rounds)`,
    },
  ];
}
