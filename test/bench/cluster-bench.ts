// `npm run bench:cluster -- [turns] [rounds]`: the Cluster part of `npm run bench` alone (test/bench/cluster-throughput.ts):
// 3 worker processes on a 3-master Redis Cluster against 3 on one Redis, same run, with each Redis's CPU.
import { clusterRows } from './cluster-rows.ts';
import { DEFAULT_CLUSTER_BENCH, measureClusterThroughput } from './cluster-throughput.ts';

const turns = Number(process.argv[2] ?? DEFAULT_CLUSTER_BENCH.turns);
const rounds = Number(process.argv[3] ?? DEFAULT_CLUSTER_BENCH.rounds);
const result = await measureClusterThroughput({ ...DEFAULT_CLUSTER_BENCH, turns, rounds });
for (const r of clusterRows(result))
  process.stdout.write(`  ${r.measure}: ${r.value} ${r.unit} (${r.ratio})\n`);
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
