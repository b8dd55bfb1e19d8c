// The management actions on background tasks (delegate.md §12): check_result, list_results, cancel_task.
import { createDelegateTasks } from '../../control-plane/delegate-tasks.ts';
import { isUuid } from '../../core/ids.ts';
import type { RunContext } from '../../run/run-context.ts';
import { fail, ok, type ToolResult } from '../../run/tool.ts';
import type { Args } from './admission.ts';
import {
  CANCELLED_BY_USER,
  cancelledRunning,
  cancelledSettled,
  invalidTaskId,
  MISSING_TASK_ID_CANCEL,
  MISSING_TASK_ID_CHECK,
  NO_BACKGROUND_RESULTS,
  noResultFound,
  noTaskFound,
  notRunning,
  terminalWithoutResult,
} from './messages.ts';
import { isVisibleTo, listView, recordView, statusName } from './views.ts';

export const tasksOf = (run: RunContext) =>
  createDelegateTasks(run.services.redis, run.services.config.redis.prefix, run.logger);
const pretty = (v: unknown) => JSON.stringify(v, null, 2);

export async function checkResult(run: RunContext, alias: string, args: Args): Promise<ToolResult> {
  if (typeof args.task_id !== 'string') throw new Error(MISSING_TASK_ID_CHECK);
  const id = args.task_id;
  if (!isUuid(id)) return fail(invalidTaskId(id));
  const rec = await tasksOf(run).get(id);
  if (!isVisibleTo(rec, alias)) return fail(noResultFound(id));
  const output = pretty(recordView(rec));
  if (rec.status === 'completed') return ok(output);
  if (rec.error) return fail(rec.error, output);
  if (rec.status === 'lost' || rec.status === 'timed_out')
    return fail(terminalWithoutResult(rec.status), output);
  return { success: false, output, error: null };
}

export async function listResults(run: RunContext, alias: string): Promise<ToolResult> {
  const recs = await tasksOf(run).listForAlias(alias);
  if (recs.length === 0) return ok(NO_BACKGROUND_RESULTS);
  return ok(pretty(recs.map(listView)));
}

export async function cancelTask(run: RunContext, alias: string, args: Args): Promise<ToolResult> {
  if (typeof args.task_id !== 'string') throw new Error(MISSING_TASK_ID_CANCEL);
  const id = args.task_id;
  if (!isUuid(id)) return fail(invalidTaskId(id));
  const tasks = tasksOf(run);
  const rec = await tasks.get(id);
  if (!isVisibleTo(rec, alias)) return fail(noTaskFound(id));
  if (rec.status !== 'running') return fail(notRunning(id, statusName(rec.status)));
  const delegation = run.services.delegation;
  const state = delegation ? await delegation.jobState(id) : 'unknown';
  const won = await tasks.settle(id, 'cancelled', { error: CANCELLED_BY_USER });
  if (!won) {
    const now = await tasks.get(id);
    return fail(notRunning(id, now ? statusName(now.status) : statusName('completed')));
  }
  if (delegation) {
    await delegation.publishCancel(id);
    if (state === 'waiting' || state === 'delayed') await delegation.removeWaiting(id);
  }
  const live = state === 'waiting' || state === 'delayed' || state === 'active';
  return ok(live ? cancelledRunning(id) : cancelledSettled(id));
}
