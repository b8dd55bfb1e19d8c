// CPU per sequential Telegram turn of a `baton start` child (the process lane's latency loop), with its thread
// split, write syscalls and, with CHILD_COST_PROF=<dir>, a CPU profile of the child (`--cpu-prof`).
// `node test/bench/child-cost.ts [turns]`.
import { readdirSync, readFileSync } from 'node:fs';
import { startFakeTelegram } from '../fakes/telegram-server.ts';
import { REDIS_URL } from '../helpers/redis.ts';
import { fakeModelAgentToml } from '../helpers/test-config.ts';
import { startBatonChild } from './baton-child.ts';
import { startModelProcess } from './model-process.ts';
import { percentile, round } from './stats.ts';
import { createTelegramClock } from './telegram-clock.ts';
import { telegramChannel } from './telegram-turns.ts';

const turns = Number(process.argv[2] ?? 300);
const profDir = process.env.CHILD_COST_PROF;
const model = await startModelProcess(0);
const tg = await startFakeTelegram();
const baton = await startBatonChild(
  process.env.BATON_TEST_REDIS_URL ?? REDIS_URL,
  'cost',
  fakeModelAgentToml(model.openaiBaseUrl) + telegramChannel(tg.url, process.env.CHILD_COST_LIVE_KEYS ?? ''),
  profDir
    ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--cpu-prof-interval=200'] }
    : { nodeArgs: (process.env.CHILD_COST_NODE_ARGS ?? '').split(' ').filter(Boolean) },
);
const pid = baton.child.pid ?? 0;
function threads(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(name, (out.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) * 10);
  }
  return out;
}
const io = () => {
  const t = readFileSync(`/proc/${pid}/io`, 'utf8');
  return { r: Number(/syscr: (\d+)/.exec(t)?.[1]), w: Number(/syscw: (\d+)/.exec(t)?.[1]) };
};
const clock = createTelegramClock(tg);
for (let i = 0; i < 50; i++) await clock.roundTrip(1, `w${i}`);
const calls0 = tg.calls.length;
const th0 = threads();
const io0 = io();
const cpu0 = baton.cpuMs();
const lat: number[] = [];
for (let i = 0; i < turns; i++) lat.push(await clock.roundTrip(1, `l${i}`));
const cpu = (baton.cpuMs() - cpu0) / turns;
const methods = new Map<string, number>();
for (const c of tg.calls.slice(calls0)) methods.set(c.method, (methods.get(c.method) ?? 0) + 1);
const io1 = io();
const th1 = threads();
process.stdout.write(
  `p50 ${round(percentile(lat, 50))} ms, p99 ${round(percentile(lat, 99))} ms, max ${round(Math.max(...lat))} ms, CPU ${round(cpu)} ms/turn, syscalls/turn read ${round((io1.r - io0.r) / turns)} write ${round((io1.w - io0.w) / turns)}\n` +
    `Bot API calls/turn: ${[...methods].map(([k, v]) => `${k} ${round(v / turns)}`).join(', ')}\n` +
    `p50 per 300 turns: ${Array.from({ length: Math.ceil(lat.length / 300) }, (_, k) => round(percentile(lat.slice(k * 300, k * 300 + 300), 50))).join(' / ')} ms\n` +
    `threads ms/turn: ${[...th1].map(([k, v]) => `${k} ${round((v - (th0.get(k) ?? 0)) / turns)}`).join(', ')}\n`,
);
// The process lane's burst: 1,000 messages over 100 chats, RSS once the last reply left (CHILD_COST_NO_BURST=1:
// sequential turns only, e.g. for a profile of them alone).
if (process.env.CHILD_COST_NO_BURST) {
  await baton.close();
  await tg.close();
  await model.close();
  process.exit(0);
}
const idleRss = baton.rssMb();
const sent = tg.calls.filter((c) => c.method === 'sendMessage').length;
const burstCpu0 = baton.cpuMs();
const tb = performance.now();
for (let i = 0; i < 1000; i++)
  tg.injectMessage({ chat: 1000 + (i % 100), from: 1000 + (i % 100), text: `b${i}` });
await tg.waitForCalls((c) => c.method === 'sendMessage', sent + 1000, 120_000, 'burst replies');
process.stdout.write(
  `burst: ${round(1000 / ((performance.now() - tb) / 1000))} turns/s, CPU ${round((baton.cpuMs() - burstCpu0) / 1000)} ms/turn, RSS before ${round(idleRss)} MB, after ${round(baton.rssMb())} MB, heap used ${round(await baton.heapUsedMb())} MB\n`,
);
if (process.env.CHILD_COST_SIGNAL) {
  baton.child.kill('SIGUSR2'); // an --import hook of the caller's may report on it
  await new Promise((r) => setTimeout(r, 500));
}
await baton.close();
await tg.close();
model.close();
process.exit(0);
