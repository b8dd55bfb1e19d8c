// `npm run bench:failover-lag -- [lag] [model_delay_ms]`: the Sentinel failover drill with replication cut
// `lag` accepted messages before the master dies (default 100), the model answering after `model_delay_ms`
// (default 0). It measures Redis's asynchronous-replication window: what the master acknowledged alone is
// gone after the promotion. Not part of `npm test` or `npm run bench`: it prints one line of figures.
import { drillLine, runFailoverDrill } from '../helpers/failover-drill.ts';
import { createRuntimeHarness, echoResponder, runtimeToml } from '../helpers/runtime-harness.ts';
import { startSentinelRedis } from '../helpers/sentinel-redis.ts';

const lagFor = Number(process.argv[2] ?? 100);
const delayMs = Number(process.argv[3] ?? 0);
const sentinel = await startSentinelRedis();
const h = await createRuntimeHarness(
  'failover-lag',
  runtimeToml(`[redis]\n${sentinel.toml}\n[worker]\nconcurrency = 8\n`),
  { workers: 2 },
);
try {
  h.server.respond(echoResponder(() => delayMs));
  const figures = await runFailoverDrill(h, sentinel, {
    chats: 10,
    perChat: 50,
    killAt: 150,
    lagFor,
    answerTimeoutMs: 30_000,
  });
  process.stdout.write(
    `failover with ${lagFor} messages unreplicated, model ${delayMs} ms: ${drillLine(figures)}\n`,
  );
  if (figures.lost.length) process.stdout.write(`lost: ${figures.lost.join(' ')}\n`);
  if (figures.duplicated.length) process.stdout.write(`duplicated: ${figures.duplicated.join(' ')}\n`);
} finally {
  await h.close();
  await sentinel.close();
}
