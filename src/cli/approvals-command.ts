// `baton approvals list [--audit]`: pending approvals (or the 7-day audit trail) read from the fleet's Redis.
import { createApprovalStore } from '../approval/approval-store.ts';
import { type ApprovalView, approvalView } from '../approval/approval-view.ts';
import { operatorLabel } from '../approval/operator-label.ts';
import { loadConfigFile } from '../config/index.ts';
import { createLogger } from '../core/logger.ts';
import { createTextRedactor } from '../core/redact.ts';
import { connectRedisOrExplain } from '../core/redis.ts';
import type { CommandIo } from './agent-command.ts';

export interface ApprovalsCommandArgs {
  configPath: string;
  audit: boolean;
  limit: number;
}

export const NO_PENDING = 'No pending approvals.';
export const NO_AUDIT = 'No settled approvals in the last 7 days.';

const where = (v: ApprovalView) =>
  `${v.channel} ${v.destination.chat}${v.destination.thread ? `:${v.destination.thread}` : ''}`;

/** One block per approval: a header line, then indented `key: value` lines; no raw arguments exist to show. */
export function formatApproval(v: ApprovalView): string {
  const agent = v.caller ? `${v.agent} (delegated by ${v.caller})` : v.agent;
  const lines = [
    `${v.approval_id}  ${v.status}  ${v.tool}`,
    `  agent: ${agent}`,
    `  args: ${v.args_summary === '' ? '(none)' : v.args_summary}`,
    `  destination: ${where(v)}`,
    `  run: ${v.run_id}`,
    `  created: ${v.created_at}  expires: ${v.expires_at}`,
  ];
  if (v.status !== 'pending') {
    const by = v.decided_by ? `${v.decided_by.channel}:${operatorLabel(v.decided_by)}` : '-';
    lines.push(`  decided: ${v.decided_at ?? '-'}  source: ${v.source ?? '-'}  by: ${by}`);
  }
  return lines.join('\n');
}

export async function approvalsCommand(args: ApprovalsCommandArgs, io: CommandIo): Promise<number> {
  const loaded = await loadConfigFile(args.configPath, io.env);
  // Only the Redis settings matter here; a config error elsewhere must not hide the approvals.
  if (!loaded.config) {
    for (const d of loaded.diagnostics.filter((x) => x.severity === 'error')) io.err(d.message);
    return 1;
  }
  const config = loaded.config;
  const redis = await connectRedisOrExplain(config.redis, io.err);
  if (!redis) return 1;
  const logger = createLogger({ level: io.env.BATON_LOG_LEVEL ?? 'error', secrets: config.secrets });
  try {
    const store = createApprovalStore({ redis, prefix: config.redis.prefix, logger });
    const records = args.audit ? await store.listAudit(args.limit) : await store.listPending(args.limit);
    if (records.length === 0) io.out(args.audit ? NO_AUDIT : NO_PENDING);
    // Like the ops API's responses: known secret values never leave, whatever a record carried.
    else
      io.out(
        createTextRedactor(config.secrets)(records.map((r) => formatApproval(approvalView(r))).join('\n\n')),
      );
    return 0;
  } finally {
    logger.flush();
    await redis.quit().catch(() => redis.disconnect());
  }
}
