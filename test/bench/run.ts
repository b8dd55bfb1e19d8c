// `npm run bench`: baton against raw BullMQ on the same Redis, in one run; prints a table, writes JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeTelegram } from '../fakes/telegram-server.ts';
import { REDIS_URL } from '../helpers/redis.ts';
import { measureApprovalRoundTrip } from './approval-roundtrip.ts';
import { measureBatonTurns } from './baton-turns.ts';
import { clusterRows } from './cluster-rows.ts';
import { measureClusterThroughput } from './cluster-throughput.ts';
import { measureDashboardPages } from './dashboard-pages.ts';
import { runDelegateBench } from './delegate-bench.ts';
import { measureLiveLanes } from './live-lanes.ts';
import { measureProcessLane, WARM_UP_TURNS } from './process-lane.ts';
import { measureRawBullmq } from './raw-bullmq.ts';
import { round } from './stats.ts';
import { measureEchoBot } from './telegram-echo.ts';
import { measureTelegramTurns } from './telegram-turns.ts';
import { measureWorkerScaling } from './worker-scaling.ts';

interface Row {
  measure: string;
  value: number;
  unit: string;
  ratio?: string;
  target?: string;
  met?: boolean;
}

const rows: Row[] = [];
const add = (r: Row) => {
  rows.push(r);
  process.stdout.write(`  ${r.measure}: ${round(r.value)} ${r.unit}${r.ratio ? ` (${r.ratio})` : ''}\n`);
};

process.stdout.write('raw BullMQ (no-op queue + worker)…\n');
const raw = await measureRawBullmq(REDIS_URL, { latencyJobs: 300, throughputJobs: 5000, concurrency: 16 });
add({ measure: 'raw add→completed p50', value: raw.p50Ms, unit: 'ms' });
add({ measure: 'raw add→completed p99', value: raw.p99Ms, unit: 'ms' });
add({ measure: 'raw throughput', value: raw.jobsPerSec, unit: 'jobs/s' });

process.stdout.write('baton inbound→reply, instant model, one worker…\n');
const baton = await measureBatonTurns(REDIS_URL, {
  latencyTurns: 300,
  throughputTurns: 3000,
  conversations: 300,
  concurrency: 16,
  rounds: 3,
  rawThroughput: async () =>
    (await measureRawBullmq(REDIS_URL, { latencyJobs: 50, throughputJobs: 5000, concurrency: 16 }))
      .jobsPerSec,
});
add({
  measure: 'baton inbound→reply p50',
  value: baton.p50Ms,
  unit: 'ms',
  ratio: `${round(baton.p50Ms / raw.p50Ms)}× raw p50`,
  target: '≤ 4×',
  met: baton.p50Ms <= 4 * raw.p50Ms,
});
add({
  measure: 'baton inbound→reply p99',
  value: baton.p99Ms,
  unit: 'ms',
  ratio: `${round(baton.p99Ms / raw.p99Ms)}× raw p99`,
});
add({
  measure: 'baton throughput',
  value: baton.turnsPerSec,
  unit: 'turns/s',
  ratio: `${round(100 * baton.medianRatio)} % of raw (median of ${baton.ratios.map((r) => round(100 * r)).join(' / ')} %, each against raw measured just before)`,
  target: '≥ 40 %',
  met: baton.medianRatio >= 0.4,
});

process.stdout.write(
  'Telegram (fake Bot API, real grammy): bare echo bot, then baton beside the local channel…\n',
);
const tg = await startFakeTelegram();
const echo = await measureEchoBot(tg, { turns: 300, chat: 9 });
const viaTg = await measureTelegramTurns(REDIS_URL, tg, {
  latencyTurns: 300,
  chats: 50,
  perChat: 30,
  concurrency: 16,
});
process.stdout.write('approval round trip: press at the fake Telegram → the gated tool starts…\n');
const approval = await measureApprovalRoundTrip(REDIS_URL, tg, { rounds: 200, warmup: 20 });
await tg.close();
process.stdout.write(
  'the Telegram lane with streaming and progress on and off, alternated (live.md §2, §3)…\n',
);
const live = await measureLiveLanes(6);
add({ measure: 'grammy echo bot update→sendMessage p50', value: echo.p50Ms, unit: 'ms' });
add({ measure: 'grammy echo bot update→sendMessage p99', value: echo.p99Ms, unit: 'ms' });
const tgTargetMs = 2 * (echo.p50Ms + 2 * raw.p50Ms);
add({
  measure: 'baton Telegram update→sendMessage p50',
  value: viaTg.p50Ms,
  unit: 'ms',
  ratio: `${round(viaTg.p50Ms / echo.p50Ms)}× echo p50; local channel ${round(viaTg.localP50Ms)} ms`,
  target: `≤ 2 × (echo p50 + 2 × raw p50) = ${round(tgTargetMs)} ms`,
  met: viaTg.p50Ms <= tgTargetMs,
});
add({ measure: 'baton Telegram update→sendMessage p99', value: viaTg.p99Ms, unit: 'ms' });
const tgShare = viaTg.telegramTurnsPerSec / viaTg.localTurnsPerSec;
add({
  measure: 'baton Telegram throughput, 50 chats',
  value: viaTg.telegramTurnsPerSec,
  unit: 'turns/s',
  ratio: `${round(100 * tgShare)} % of local channel (${round(viaTg.localTurnsPerSec)} turns/s)`,
  target: '≥ 50 %',
  met: tgShare >= 0.5,
});

const medianOf = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
add({
  measure: 'Telegram throughput, streaming and progress on',
  value: medianOf(live.on.map((r) => r.telegramTurnsPerSec)),
  unit: 'turns/s',
  ratio: `${round(100 * live.medianShare)} % of the same lane with both off (median of ${live.on.length} back-to-back pairs; off ${round(medianOf(live.off.map((r) => r.telegramTurnsPerSec)))} turns/s)`,
  target: '≥ 90 %',
  met: live.medianShare >= 0.9,
});
add({
  measure: 'Telegram instant answer p50, streaming and progress on',
  value: medianOf(live.on.map((r) => r.p50Ms)),
  unit: 'ms',
  ratio: `both off: ${round(medianOf(live.off.map((r) => r.p50Ms)))} ms`,
  target: 'does not move',
});
add({
  measure: 'approval press→tool start (Telegram) p50',
  value: approval.p50Ms,
  unit: 'ms',
  ratio: `press→ack ${round(approval.ackP50Ms)} ms; local channel ${round(approval.localP50Ms)} ms`,
  target: '≤ 15 ms',
  met: approval.p50Ms <= 15,
});
add({
  measure: 'approval press→tool start (Telegram) p99',
  value: approval.p99Ms,
  unit: 'ms',
  ratio: `local channel ${round(approval.localP99Ms)} ms`,
  target: '≤ 50 ms',
  met: approval.p99Ms <= 50,
});

process.stdout.write(
  'baton start as its own process (default log level), Telegram on the fake, the fake model in its own process…\n',
);
const proc = await measureProcessLane(REDIS_URL);
add({
  measure: `baton start: Telegram update→sendMessage p50, after ${WARM_UP_TURNS} warm-up turns`,
  value: proc.p50Ms,
  unit: 'ms',
  ratio: `${round(proc.p50Ms / proc.floorMs)}× the floor of ${round(proc.floorMs)} ms (echo ${round(proc.echoP50Ms)} + 2 × raw ${round(proc.rawP50Ms)} + model call ${round(proc.modelCallP50Ms)})`,
  target: '≤ 2× floor',
  met: proc.p50Ms <= 2 * proc.floorMs,
});
add({
  measure: 'baton start: Telegram update→sendMessage p50, turns 51–350 after start',
  value: proc.earlyP50Ms,
  unit: 'ms',
  ratio: `${round(proc.earlyP50Ms / proc.floorMs)}× the floor (before the JIT has optimised a turn's code; the row above is after ${WARM_UP_TURNS} turns)`,
});
add({
  measure: 'baton start: Telegram update→sendMessage p99',
  value: proc.p99Ms,
  unit: 'ms',
  ratio: `the baton process's CPU per sequential turn: ${round(proc.cpuMsPerTurn)} ms`,
});
add({ measure: 'baton start: Telegram throughput, 50 chats', value: proc.turnsPerSec, unit: 'turns/s' });
add({
  measure: 'baton start: resident memory after a 1,000-message burst',
  value: proc.burstRssMb,
  unit: 'MB',
  ratio: `heap used ${round(proc.burstHeapUsedMb)} MB; idle before the traffic ${round(proc.idleRssMb)} MB`,
  target: '≤ 300 MB',
  met: proc.burstRssMb <= 300,
});
add({
  measure: 'baton start, web channel only: idle resident memory',
  value: proc.webOnlyIdleRssMb,
  unit: 'MB',
  target: '≤ 150 MB',
  met: proc.webOnlyIdleRssMb <= 150,
});

process.stdout.write('worker scaling, 20 ms model…\n');
const scaling = await measureWorkerScaling(REDIS_URL);
add({ measure: '1 worker process', value: scaling.oneWorkerTurnsPerSec, unit: 'turns/s' });
add({
  measure: '2 worker processes',
  value: scaling.twoWorkersTurnsPerSec,
  unit: 'turns/s',
  ratio: `${round(scaling.ratio)}× one worker`,
  target: '≥ 1.6×',
  met: scaling.ratio >= 1.6,
});

process.stdout.write('3 worker processes on a 3-master Redis Cluster and on one Redis, alternated…\n');
const cluster = await measureClusterThroughput();
for (const r of clusterRows(cluster)) add(r);

process.stdout.write('delegate fan-out and await_sessions…\n');
const delegate = await runDelegateBench();
for (const [k, v] of Object.entries(delegate)) add({ measure: `delegate ${k}`, value: v, unit: '' });

process.stdout.write('dashboard pages: 10,000-message transcript, 1,000 sessions…\n');
const dashboard = await measureDashboardPages(REDIS_URL);
const pages = [
  ['transcript page (newest) of 10,000 messages', dashboard.transcriptFirst],
  ['transcript page (older) of 10,000 messages', dashboard.transcriptOlder],
  ['sessions page (first) of 1,000 sessions', dashboard.sessionsFirst],
  ['sessions page (offset 500) of 1,000 sessions', dashboard.sessionsMiddle],
] as const;
for (const [name, t] of pages) {
  add({
    measure: `${name} p50`,
    value: t.p50Ms,
    unit: 'ms',
    ratio: `${round(t.p50Ms / dashboard.rawPageReadP50Ms)}× raw page read; ${t.bytes} bytes`,
  });
  add({ measure: `${name} p99`, value: t.p99Ms, unit: 'ms' });
}

process.stdout.write('\n| measure | value | ratio | target | met |\n|---|---|---|---|---|\n');
const met = (r: Row) => (r.met === undefined ? '' : r.met ? 'yes' : 'NO');
for (const r of rows) {
  process.stdout.write(
    `| ${r.measure} | ${round(r.value)} ${r.unit} | ${r.ratio ?? ''} | ${r.target ?? ''} | ${met(r)} |\n`,
  );
}
const dir = join(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(
  join(dir, 'latest.json'),
  JSON.stringify(
    {
      at: new Date().toISOString(),
      raw,
      baton,
      telegram: { echo, baton: viaTg, targetP50Ms: tgTargetMs, throughputShareOfLocal: tgShare },
      live,
      process: proc,
      approval: { ...approval, targetP50Ms: 15, targetP99Ms: 50 },
      scaling,
      cluster,
      delegate,
      dashboard,
    },
    null,
    2,
  ),
);
process.exit(0);
