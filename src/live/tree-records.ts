// The records a live tree shows its states from (live.md §6): background tasks' task records and the pending
// approval records of its runs. Read once per view: a task that appears twice (under its launcher and as its own
// node) is read once, and the pending approvals are one list read for every tree of the view.
import type { Redis } from 'ioredis';
import { createApprovalStore } from '../approval/approval-store.ts';
import type { ApprovalRecord } from '../approval/record.ts';
import type { Logger } from '../core/logger.ts';
import { createTaskRecords } from '../delegation/task-records.ts';

/** Where a pending approval of a run was sent, and until when it waits (never the arguments' raw form). */
export interface PendingApprovalView {
  approval_id: string;
  tool: string;
  channel: string;
  chat: string;
  thread: string | null;
  expires_at: string;
}

export interface TreeRecords {
  /** A task's status from its record; null when it has none (unknown, expired or unreadable, logged). */
  taskStatus(taskId: string): Promise<string | null>;
  pendingApprovals(runId: string): PendingApprovalView[];
}

/** Pending approvals shown: far more than a deployment has waiting at once. */
const PENDING_READ = 200;

export async function readTreeRecords(
  redis: Redis,
  prefix: string,
  logger: Pick<Logger, 'warn'>,
): Promise<TreeRecords> {
  const tasks = createTaskRecords(redis, prefix, logger);
  const pending = await createApprovalStore({ redis, prefix, logger }).listPending(PENDING_READ);
  const byRun = new Map<string, ApprovalRecord[]>();
  for (const rec of pending) byRun.set(rec.run_id, [...(byRun.get(rec.run_id) ?? []), rec]);
  const statuses = new Map<string, Promise<string | null>>();
  return {
    taskStatus(taskId) {
      let status = statuses.get(taskId);
      if (!status) {
        status = tasks.get(taskId).then((r) => r?.status ?? null);
        statuses.set(taskId, status);
      }
      return status;
    },
    pendingApprovals: (runId) =>
      (byRun.get(runId) ?? []).map((r) => ({
        approval_id: r.approval_id,
        tool: r.tool,
        channel: r.channel,
        chat: r.destination.chat,
        thread: r.destination.thread,
        expires_at: new Date(r.expires_at).toISOString(),
      })),
  };
}
