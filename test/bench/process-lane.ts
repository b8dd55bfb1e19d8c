// baton as users run it: `baton start` in its own process at the default log level, Telegram on the fake Bot API
// and the fake model in a process of its own, against the same run's floor (a bare grammy echo bot + 2 raw BullMQ
// round trips + one model HTTP call). Reports the Telegram p50/p99, turns/s over 50 chats, the process's RSS and
// heap after a 1,000-message burst, its idle RSS, and a web-only process's idle RSS.
// `node test/bench/process-lane.ts` runs it alone.
import http from 'node:http';
import { startFakeTelegram } from '../fakes/telegram-server.ts';
import { REDIS_URL } from '../helpers/redis.ts';
import { fakeModelAgentToml } from '../helpers/test-config.ts';
import { startBatonChild } from './baton-child.ts';
import { startModelProcess } from './model-process.ts';
import { measureRawBullmq } from './raw-bullmq.ts';
import { percentile, round } from './stats.ts';
import { closedLoops, createTelegramClock } from './telegram-clock.ts';
import { measureEchoBot } from './telegram-echo.ts';
import { telegramChannel } from './telegram-turns.ts';

export interface ProcessLaneFigures {
  /** Sequential turns once the process is warm (after WARM_UP_TURNS), as a long-running gateway serves them. */
  p50Ms: number;
  p99Ms: number;
  /** The same, over turns 51–350 after start: the JIT has not yet optimised most of a turn's code. */
  earlyP50Ms: number;
  /** echo p50 + 2 × raw BullMQ p50 + model HTTP call p50, all measured in this run. */
  floorMs: number;
  echoP50Ms: number;
  rawP50Ms: number;
  modelCallP50Ms: number;
  turnsPerSec: number;
  idleRssMb: number;
  burstRssMb: number;
  burstHeapUsedMb: number;
  webOnlyIdleRssMb: number;
  /** CPU time the baton process spent per sequential Telegram turn (the latency loop), ms. */
  cpuMsPerTurn: number;
  /** Bytes of log the process wrote per Telegram turn (default level). */
  logBytesPerTurn: number;
}

const WEB_ONLY = `
[channels.web.main]
enabled = true

[peer_groups.web]
channel = "web.main"
agents = ["main"]
external_peers = ["web:local"]
`;

/** How long a process is left alone before its idle RSS is read (startup garbage collected, timers running). */
const IDLE_MS = 3000;

/**
 * Round trips every measured piece makes before it is measured, baton and the floor's alike: V8 optimises a
 * function only after many calls, and a turn runs much of its code once, so baton's p50 over turns 51–350 after
 * start is 1.3–1.8× its p50 once warm (README "Performance"). A gateway serving users is warm.
 */
export const WARM_UP_TURNS = 1000;

/**
 * The model HTTP call of the floor: one non-streaming chat completion over Node's own keep-alive HTTP client,
 * timed from this process. It was a `fetch` until baton's model client left fetch (README "Performance", fifth
 * pass): fetch took 0.3–0.4 ms more per call, a floor baton itself no longer pays.
 */
async function modelCallP50(baseUrl: string, n: number): Promise<number> {
  const body = JSON.stringify({ model: 'fake-model', messages: [{ role: 'user', content: 'hi' }] });
  const url = new URL(`${baseUrl}/chat/completions`);
  const agent = new http.Agent({ keepAlive: true });
  const call = () =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(
        {
          hostname: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.once('end', resolve);
          res.once('error', reject);
        },
      );
      req.once('error', reject);
      req.end(body);
    });
  const times: number[] = [];
  for (let i = 0; i < WARM_UP_TURNS + n; i++) {
    const t0 = performance.now();
    await call();
    if (i >= WARM_UP_TURNS) times.push(performance.now() - t0);
  }
  agent.destroy();
  return percentile(times, 50);
}

export async function measureProcessLane(
  url: string,
  opts = { latencyTurns: 300, chats: 50, perChat: 30, burst: 1000 },
): Promise<ProcessLaneFigures> {
  const model = await startModelProcess(0);
  const tg = await startFakeTelegram();
  try {
    const web = await startBatonChild(url, 'proc-web', fakeModelAgentToml(model.openaiBaseUrl) + WEB_ONLY);
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const webOnlyIdleRssMb = web.rssMb();
    await web.close();

    const baton = await startBatonChild(
      url,
      'proc-tg',
      fakeModelAgentToml(model.openaiBaseUrl) + telegramChannel(tg.url),
    );
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const idleRssMb = baton.rssMb();
    const clock = createTelegramClock(tg);
    // The floor and baton alternate in the same minutes: echo bot, raw BullMQ, model call, then baton.
    // The echo bot on a fake of its own: a fake's updates go to every bot polling it, and baton polls this one.
    const echoTg = await startFakeTelegram();
    const echo = await measureEchoBot(echoTg, { turns: 300, chat: 9, warmUp: WARM_UP_TURNS }).finally(() =>
      echoTg.close(),
    );
    const raw = await measureRawBullmq(url, {
      latencyJobs: 300,
      throughputJobs: 10,
      concurrency: 16,
      warmUpJobs: WARM_UP_TURNS,
    });
    const modelCallP50Ms = await modelCallP50(model.openaiBaseUrl, 300);

    const early: number[] = [];
    const latencies: number[] = [];
    let cpuAtStart = 0;
    for (let i = 0; i < WARM_UP_TURNS + opts.latencyTurns; i++) {
      if (i === WARM_UP_TURNS) cpuAtStart = baton.cpuMs();
      const ms = await clock.roundTrip(1, `l${i}`);
      if (i >= 50 && i < 50 + opts.latencyTurns) early.push(ms); // connections and scripts ready, JIT not
      if (i >= WARM_UP_TURNS) latencies.push(ms);
    }
    const cpuMsPerTurn = (baton.cpuMs() - cpuAtStart) / opts.latencyTurns;
    const logBefore = baton.logBytes();
    await closedLoops(opts.chats, 3, (c, i) => clock.roundTrip(100 + c, `w${i}`));
    const turnsPerSec = await closedLoops(opts.chats, opts.perChat, (c, i) =>
      clock.roundTrip(200 + c, `t${i}`),
    );
    const logBytesPerTurn = (baton.logBytes() - logBefore) / (opts.chats * (opts.perChat + 3));

    // The burst: 1,000 messages at once over 100 chats, then the process's memory once every reply has left.
    const sent = tg.calls.filter((c) => c.method === 'sendMessage').length;
    for (let i = 0; i < opts.burst; i++)
      tg.injectMessage({ chat: 1000 + (i % 100), from: 1000 + (i % 100), text: `b${i}` });
    await tg.waitForCalls((c) => c.method === 'sendMessage', sent + opts.burst, 120_000, 'burst replies');
    const burstRssMb = baton.rssMb();
    const burstHeapUsedMb = await baton.heapUsedMb();
    await baton.close();

    const floorMs = echo.p50Ms + 2 * raw.p50Ms + modelCallP50Ms;
    return {
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      earlyP50Ms: percentile(early, 50),
      floorMs,
      echoP50Ms: echo.p50Ms,
      rawP50Ms: raw.p50Ms,
      modelCallP50Ms,
      turnsPerSec,
      idleRssMb,
      burstRssMb,
      burstHeapUsedMb,
      webOnlyIdleRssMb,
      cpuMsPerTurn,
      logBytesPerTurn,
    };
  } finally {
    await tg.close();
    model.close();
  }
}

if (import.meta.main) {
  const f = await measureProcessLane(REDIS_URL);
  const out = Object.entries(f).map(([k, v]) => `${k}: ${round(v)}`);
  out.push(`p50 ÷ floor: ${round(f.p50Ms / f.floorMs)} (target ≤ 2)`);
  process.stdout.write(`${out.join('\n')}\n`);
  process.exit(0);
}
