// The bench table's rows for the Cluster measure (cluster-throughput.ts): medians of the rounds.
import type { ClusterThroughput, LaneFigures } from './cluster-throughput.ts';
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
  const w = `${r.options.workers} worker processes, ${r.options.modelMs} ms model`;
  const cpu = (f: LaneFigures) =>
    `Redis CPU ${f.nodeCpuPct.map((p) => `${round(p)} %`).join(', ')} of a core; ${round(f.redisCpuMsPerTurn)} ms Redis CPU per turn; ${round(f.clients)} clients`;
  const row = (measure: string, runs: LaneFigures[], vs: boolean): ClusterRow => {
    const f = laneMedian(runs);
    return {
      measure: `${measure}, ${w}`,
      value: round(f.turnsPerSec),
      unit: 'turns/s',
      ratio: `${vs ? `${round(f.turnsPerSec / one.turnsPerSec)}× one Redis; ` : ''}${cpu(f)} (median of ${runs.length} alternated rounds)`,
    };
  };
  return [
    row('one Redis', r.single, false),
    row('one Redis, 16 partitions', r.singlePartitioned, true),
    row('3-master Cluster, 16 partitions', r.cluster, true),
  ];
}
