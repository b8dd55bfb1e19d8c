// `baton agent`: one top-level turn in this process, no channel registry, answer on stdout.
import { outboundRedactor } from '../agent/outbound-redact.ts';
import { runTurn } from '../agent/run-turn.ts';
import { ID_PATTERN_TEXT, isId } from '../config/ids.ts';
import { loadConfigFile } from '../config/index.ts';
import { errorMessage } from '../core/errors.ts';
import { newRunId } from '../core/ids.ts';
import { createLogger } from '../core/logger.ts';
import { createTextRedactor } from '../core/redact.ts';
import { connectRedisOrExplain } from '../core/redis.ts';
import { type CronScheduler, createCronScheduler } from '../queue/cron-scheduler.ts';
import { createDelegationServices, type DelegationHandle } from '../queue/delegate-queue.ts';
import { createDelegateWorker, type DelegateWorker } from '../queue/delegate-worker.ts';
import { createRuntimeServices } from '../roles/services.ts';

export interface AgentCommandArgs {
  configPath: string;
  agent: string;
  message: string;
  session?: string;
}

export interface CommandIo {
  out: (text: string) => void;
  err: (text: string) => void;
  env: Record<string, string | undefined>;
}

/** `-s`: a session id is part of Redis keys; the same rule as config ids (config/ids.ts). */
export const BAD_SESSION_ID = `error: session id must match ${ID_PATTERN_TEXT} (at most 128 characters)`;

export async function agentCommand(args: AgentCommandArgs, io: CommandIo): Promise<number> {
  if (args.session !== undefined && (!isId(args.session) || args.session.length > 128)) {
    io.err(BAD_SESSION_ID);
    return 2;
  }
  const loaded = await loadConfigFile(args.configPath, io.env);
  const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
  // A one-shot run has no repair surface to keep up, so any config error stops it (unlike `baton start`).
  for (const d of errors) io.err(d.message);
  if (errors.length > 0 || !loaded.config) return 1;
  const config = loaded.config;

  const redis = await connectRedisOrExplain(config.redis, io.err);
  if (!redis) return 1;
  const logger = createLogger({ level: io.env.BATON_LOG_LEVEL ?? 'error', secrets: config.secrets });
  const abort = new AbortController();
  const onSignal = () => abort.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let delegateWorker: DelegateWorker | undefined;
  let cron: CronScheduler | undefined;
  let delegation: DelegationHandle | undefined;
  try {
    // The cron_* tools act on the fleet's schedules (workers fire them); no sync: config jobs are the workers'.
    cron = createCronScheduler({
      config,
      redis,
      redisTarget: config.redis,
      prefix: config.redis.prefix,
      logger,
    });
    delegation = createDelegationServices({
      redisTarget: config.redis,
      prefix: config.redis.prefix,
      logger,
    });
    const services = createRuntimeServices({ config, redis, logger, env: io.env, cron, delegation });
    // This process also consumes the delegate queue, so a background task started in this turn can finish
    // (and be awaited) here even when no `baton worker` runs.
    delegateWorker = createDelegateWorker({
      services,
      delegation,
      redisTarget: config.redis,
      prefix: config.redis.prefix,
      concurrency: config.worker.background_concurrency,
      shutdownGraceMs: config.worker.shutdown_grace_secs * 1000,
    });
    const result = await runTurn(services, {
      agentAlias: args.agent,
      sessionKey: args.session ?? `cli-${newRunId()}`,
      sender: 'cli:local',
      message: args.message,
      asker: null, // one-shot CLI: calls that need an operator decision are denied by the runtime
      signal: abort.signal,
    });
    io.out(outboundRedactor(services)(result.text));
    return 0;
  } catch (err) {
    io.err(
      `error: ${abort.signal.aborted ? 'interrupted' : createTextRedactor(config.secrets)(errorMessage(err))}`,
    );
    return abort.signal.aborted ? 130 : 1;
  } finally {
    await delegateWorker?.close().catch(() => {});
    await cron?.close().catch(() => {});
    await delegation?.close().catch(() => {});
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    logger.flush();
    await redis.quit().catch(() => redis.disconnect());
  }
}
