// The model-visible JSON views of task records (delegate.md §12.1, §12.3) and the owner scoping rule.
import type { TaskRecord, TaskStatus } from '../../delegation/task-records.ts';
import { REAPER_NOTE } from './delegate-messages.ts';

const STATUS_NAMES: Record<TaskStatus, string> = {
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
  lost: 'Lost',
  timed_out: 'TimedOut',
};
export const statusName = (s: TaskStatus) => STATUS_NAMES[s];

/**
 * Owner scoping (§12): only delegate records whose chain contains the caller, started in the caller's root
 * conversation (`scope`), are visible; any other behaves exactly as an unknown id.
 */
export const isVisibleTo = (rec: TaskRecord | null, alias: string, scope: string): rec is TaskRecord =>
  rec !== null && rec.kind === 'delegate' && rec.chain.includes(alias) && rec.scope === scope;

/** elapsed_secs is computed when read: now (or finished_at) minus started_at. */
function progressView(rec: TaskRecord, now: number): Record<string, unknown> | null {
  if (!rec.progress) return null;
  const end = rec.finished_at ? Date.parse(rec.finished_at) : now;
  const elapsed = Math.max(0, Math.floor((end - Date.parse(rec.started_at)) / 1000));
  return { ...rec.progress, elapsed_secs: elapsed };
}

export function recordView(rec: TaskRecord, now = Date.now()): Record<string, unknown> {
  const view: Record<string, unknown> = {
    task_id: rec.task_id,
    agent: rec.agent,
    status: rec.status,
    output: rec.output,
    error: rec.error,
    started_at: rec.started_at,
    finished_at: rec.finished_at,
    progress: progressView(rec, now),
  };
  if (rec.status === 'lost' || rec.status === 'timed_out') view.note = REAPER_NOTE;
  return view;
}

export const listView = (rec: TaskRecord) => ({
  task_id: rec.task_id,
  agent: rec.agent,
  status: rec.status,
  started_at: rec.started_at,
  finished_at: rec.finished_at,
});

export const isFailedStatus = (s: TaskStatus) =>
  s === 'failed' || s === 'cancelled' || s === 'lost' || s === 'timed_out';
