// The management actions on background tasks (delegate.md §12): check_result, list_results, cancel_task.

import { isUuid } from '../../core/ids.ts';
import { createDelegateTasks } from '../../delegation/delegate-tasks.ts';
import type { RunContext } from '../../run-contract/run-context.ts';
import { taskScopeOf } from '../../run-contract/task-scope.ts';
import { fail, ok, type ToolResult } from '../../run-contract/tool.ts';
import type { Args } from './admission.ts';
import { cancelRunningTask } from './cancel-task.ts';
import {
  invalidTaskId,
  MISSING_TASK_ID_CANCEL,
  MISSING_TASK_ID_CHECK,
  NO_BACKGROUND_RESULTS,
  noResultFound,
  noTaskFound,
  terminalWithoutResult,
} from './delegate-messages.ts';
import { isVisibleTo, listView, recordView } from './views.ts';

export const tasksOf = (run: RunContext) =>
  createDelegateTasks(run.services.redis, run.services.config.redis.prefix, run.logger);
const pretty = (v: unknown) => JSON.stringify(v, null, 2);

export async function checkResult(run: RunContext, alias: string, args: Args): Promise<ToolResult> {
  if (typeof args.task_id !== 'string') throw new Error(MISSING_TASK_ID_CHECK);
  const id = args.task_id;
  if (!isUuid(id)) return fail(invalidTaskId(id));
  const rec = await tasksOf(run).get(id);
  if (!isVisibleTo(rec, alias, taskScopeOf(run))) return fail(noResultFound(id));
  const output = pretty(recordView(rec));
  if (rec.status === 'completed') return ok(output);
  if (rec.error) return fail(rec.error, output);
  if (rec.status === 'lost' || rec.status === 'timed_out')
    return fail(terminalWithoutResult(rec.status), output);
  return { success: false, output, error: null };
}

export async function listResults(run: RunContext, alias: string): Promise<ToolResult> {
  const scope = taskScopeOf(run);
  const recs = (await tasksOf(run).listForAlias(alias)).filter((r) => isVisibleTo(r, alias, scope));
  if (recs.length === 0) return ok(NO_BACKGROUND_RESULTS);
  return ok(pretty(recs.map(listView)));
}

export async function cancelTask(run: RunContext, alias: string, args: Args): Promise<ToolResult> {
  if (typeof args.task_id !== 'string') throw new Error(MISSING_TASK_ID_CANCEL);
  const id = args.task_id;
  if (!isUuid(id)) return fail(invalidTaskId(id));
  const tasks = tasksOf(run);
  const rec = await tasks.get(id);
  if (!isVisibleTo(rec, alias, taskScopeOf(run))) return fail(noTaskFound(id));
  const res = await cancelRunningTask(tasks, run.services.delegation, rec);
  return res.cancelled ? ok(res.text) : fail(res.text);
}
