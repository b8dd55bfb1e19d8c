// An approval round trip: from the operator's press (a callback_query injected at the fake Telegram, read by the
// real grammy adapter; and a press on the local channel beside it) to the gated tool's execute() beginning in
// the worker that waits. Gateway and worker roles in one process on Redis, like the other latency benches: the
// hand-over still crosses Redis (decision CAS + publish → the waiter's own SUBSCRIBE connection), and one
// clock times both ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { createLocalChannel, type LocalReply } from '../../channels/local/local-adapter.ts';
import { approvalKeys } from '../../src/approval/record.ts';
import { createSilentLogger } from '../../src/core/logger.ts';
import { createRedis } from '../../src/core/redis.ts';
import { createChannelAdapters } from '../../src/roles/channel-adapters.ts';
import { startGatewayRole } from '../../src/roles/gateway-role.ts';
import { startWorkerRole } from '../../src/roles/worker-role.ts';
import type { FakeTelegram } from '../fakes/telegram-server.ts';
import type { TgMessage } from '../fakes/telegram-wire.ts';
import { deletePrefix, uniquePrefix } from '../helpers/redis.ts';
import { configFromToml } from '../helpers/test-config.ts';
import { waitFor } from '../helpers/wait.ts';
import { createMarkProvider, createMarkTool, MARK_TOOL } from './approval-tool.ts';
import { benchConfigText } from './bench-runtime.ts';
import { percentile } from './stats.ts';
import { telegramChannel } from './telegram-turns.ts';

export interface ApprovalFigures {
  /** Telegram: callback_query injected at the fake → the tool's execute() begins. */
  p50Ms: number;
  p99Ms: number;
  /** Telegram: the same press → answerCallbackQuery (the presser's ack) received at the fake. */
  ackP50Ms: number;
  /** The local channel's press → execute(), alternating with the Telegram rounds. */
  localP50Ms: number;
  localP99Ms: number;
  rounds: number;
}

const CHAT = 1; // a private chat: the card is posted where the message came from
const DEADLINE_MS = 30_000;

const configText = (url: string, prefix: string, dataDir: string, apiRoot: string) =>
  `${benchConfigText(url, prefix, dataDir, 'http://127.0.0.1:9', 4).replace(
    '[risk_profiles.default]\n',
    `[risk_profiles.default]\nalways_ask = ["${MARK_TOOL}"]\n`,
  )}${telegramChannel(apiRoot)}`;

/** The waiter is subscribed to the decision: the press lands on a settled wait, as a human's would. */
const waiting = (redis: Redis, prefix: string, id: string) =>
  waitFor(
    async () => {
      const [, n] = (await redis.pubsub('NUMSUB', approvalKeys(prefix).decided(id))) as [string, number];
      return Number(n) > 0;
    },
    DEADLINE_MS,
    `the waiter on ${id}`,
    1,
  );

export async function measureApprovalRoundTrip(
  url: string,
  tg: FakeTelegram,
  opts: { rounds: number; warmup: number },
): Promise<ApprovalFigures> {
  const prefix = uniquePrefix('bench-approval');
  const dataDir = mkdtempSync(join(tmpdir(), 'baton-bench-ap-'));
  const config = configFromToml(configText(url, prefix, dataDir, tg.url));
  const logger = createSilentLogger();
  const redis = createRedis({ url }, { autoPipeline: true });
  const local = createLocalChannel('test', 4000);
  const gateway = await startGatewayRole({
    config,
    logger,
    redis,
    adapters: [local, ...(await createChannelAdapters(config, logger))],
    routes: { 'local.test': 'main' },
  });
  const mark = createMarkTool();
  const provider = createMarkProvider();
  const worker = await startWorkerRole({
    config,
    logger,
    redis,
    env: {},
    createProvider: () => provider,
    buildToolSet: mark.buildToolSet,
  });
  const acks = new Map<string, (at: number) => void>();
  tg.onCall((c) => {
    if (c.method !== 'answerCallbackQuery') return;
    const id = String(c.params.callback_query_id);
    acks.get(id)?.(performance.now());
    acks.delete(id);
  });

  const viaTelegram = async (round: string) => {
    const cards = () => tg.sentTo(CHAT).filter((s) => s.versions[0]?.reply_markup);
    const before = cards().length;
    const answers = () => tg.sentTo(CHAT).filter((s) => s.message.text === 'done').length;
    const answered = answers();
    tg.injectMessage({ chat: CHAT, from: CHAT, text: round });
    await waitFor(() => cards().length > before, DEADLINE_MS, 'the telegram card', 1);
    const card = cards().at(-1)!.message as TgMessage;
    const data = card.reply_markup!.inline_keyboard.flat()[0]!.callback_data!;
    await waiting(redis, prefix, data.split(':')[1]!);
    const started = mark.started(round);
    const t0 = performance.now();
    const { id } = tg.injectCallback({ message: card, from: CHAT, data });
    const acked = new Promise<number>((resolve) => acks.set(id, resolve));
    const [at, ackAt] = await Promise.all([started, acked]);
    await waitFor(() => answers() > answered, DEADLINE_MS, 'the telegram answer', 1);
    return { ms: at - t0, ackMs: ackAt - t0 };
  };

  const isCard = (r: LocalReply) => r.to.chat === 'ap' && r.versions[0]?.buttons?.length;
  const viaLocal = async (round: string) => {
    const before = local.replies.filter(isCard).length;
    const answers = () => local.replies.filter((r) => r.to.chat === 'ap' && r.text === 'done').length;
    const answered = answers();
    await local.inject({ chat: 'ap', text: round });
    await waitFor(() => local.replies.filter(isCard).length > before, DEADLINE_MS, 'the local card', 1);
    const card = local.replies.filter(isCard).at(-1)!;
    const approve = card.versions[0]!.buttons!.flat()[0]!.id;
    await waiting(redis, prefix, approve.split(':')[1]!);
    const started = mark.started(round);
    const t0 = performance.now();
    await local.press({ messageId: card.messageId, actionId: approve, senderId: 'local-user' });
    const ms = (await started) - t0;
    await waitFor(() => answers() > answered, DEADLINE_MS, 'the local answer', 1);
    return ms;
  };

  const tgMs: number[] = [];
  const ackMs: number[] = [];
  const localMs: number[] = [];
  for (let i = 0; i < opts.warmup + opts.rounds; i++) {
    const t = await viaTelegram(`t${i}`);
    const l = await viaLocal(`l${i}`);
    if (i < opts.warmup) continue; // connections, scripts and JIT
    tgMs.push(t.ms);
    ackMs.push(t.ackMs);
    localMs.push(l);
  }

  await worker.close(1000);
  await gateway.close(1000);
  await deletePrefix(redis, prefix);
  await redis.quit();
  rmSync(dataDir, { recursive: true, force: true });
  return {
    p50Ms: percentile(tgMs, 50),
    p99Ms: percentile(tgMs, 99),
    ackP50Ms: percentile(ackMs, 50),
    localP50Ms: percentile(localMs, 50),
    localP99Ms: percentile(localMs, 99),
    rounds: opts.rounds,
  };
}
