// `baton reload`: asks every process of the deployment (same Redis prefix) to reload its own config file.
// Exit 0 only when every process reached acknowledged and applied it; 1 when any rejected it or none answered.
import { loadConfigFile } from '../config/index.ts';
import { ackApplied, ackRejected, ackRestartOnly, reloadAcknowledged } from '../config/reload-messages.ts';
import { connectRedisOrExplain } from '../core/redis.ts';
import { requestDeploymentReload } from '../fleet/reload-bus.ts';
import type { CommandIo } from './agent-command.ts';

export async function reloadCommand(
  args: { configPath: string; timeoutMs?: number },
  io: CommandIo,
): Promise<number> {
  const loaded = await loadConfigFile(args.configPath, io.env);
  // Only [redis] matters here: each process validates its own file when it reloads.
  if (!loaded.config) {
    for (const d of loaded.diagnostics.filter((x) => x.severity === 'error')) io.err(d.message);
    return 1;
  }
  const target = loaded.config.redis;
  const { prefix } = target;
  const redis = await connectRedisOrExplain(target, io.err);
  if (!redis) return 1;
  try {
    const res = await requestDeploymentReload(redis, prefix, {
      ...(args.timeoutMs ? { timeoutMs: args.timeoutMs } : {}),
    });
    io.out(reloadAcknowledged(res.acks.length, res.reached, prefix));
    for (const a of res.acks) {
      io.out(
        a.ok ? ackApplied(a.role, a.process, a.changed) : ackRejected(a.role, a.process, a.errors.length),
      );
      if (a.restart_only.length) io.out(ackRestartOnly(a.restart_only));
    }
    // Success only when every process reached answered and applied the file: a rejection, silence (nobody
    // listening, or a process that did not answer in time) is a failed reload for scripts and deploy hooks.
    const allApplied = res.acks.length > 0 && res.acks.length >= res.reached && res.acks.every((a) => a.ok);
    return allApplied ? 0 : 1;
  } finally {
    await redis.quit().catch(() => redis.disconnect());
  }
}
