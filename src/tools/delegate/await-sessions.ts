// await_sessions (delegate.md §12.2): validation in spec order, then an event-driven wait on settled tasks.

import { isUuid } from '../../core/ids.ts';
import type { TaskRecord } from '../../delegation/task-records.ts';
import type { RunContext } from '../../run-contract/run-context.ts';
import { taskScopeOf } from '../../run-contract/task-scope.ts';
import { fail, ok, type ToolResult } from '../../run-contract/tool.ts';
import type { Args } from './admission.ts';
import { awaitText, invalidTaskId } from './delegate-messages.ts';
import { tasksOf } from './management.ts';
import { isFailedStatus, isVisibleTo, recordView } from './views.ts';

const MAX_IDS = 128;
const MAX_TIMEOUT_MS = 120_000;
const DEFAULT_TIMEOUT_MS = 30_000;
/** The spec's polling latency; used when ids are missing (their records may still appear) or without events. */
const POLL_MS = 50;
/** With settle events, a slow re-check only guards against a lost pub/sub message. */
const SAFETY_RECHECK_MS = 1_000;

function validate(args: Args): { ids: string[]; timeoutMs: number } | ToolResult {
  const raw = args.task_ids;
  if (!Array.isArray(raw)) return fail(awaitText.missing);
  if (raw.length > MAX_IDS) return fail(awaitText.tooMany);
  if (raw.some((v) => typeof v !== 'string')) return fail(awaitText.nonString);
  const ids = raw as string[];
  const bad = ids.find((id) => !isUuid(id));
  if (bad !== undefined) return fail(invalidTaskId(bad));
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) return fail(awaitText.duplicate(id));
    seen.add(id);
  }
  if (ids.length === 0) return fail(awaitText.empty);
  const t = args.timeout_ms;
  if (t !== undefined && !Number.isInteger(t)) return fail(awaitText.notInteger);
  if (typeof t === 'number' && t > MAX_TIMEOUT_MS) return fail(awaitText.tooLong);
  // The schema's minimum is 0; a negative value gets the same single look as 0.
  return { ids, timeoutMs: typeof t === 'number' ? Math.max(0, t) : DEFAULT_TIMEOUT_MS };
}

interface Snapshot {
  visible: TaskRecord[];
  pending: string[];
  missing: string[];
}

async function snapshot(run: RunContext, alias: string, ids: string[]): Promise<Snapshot> {
  const tasks = tasksOf(run);
  const recs = await Promise.all(ids.map((id) => tasks.get(id)));
  const out: Snapshot = { visible: [], pending: [], missing: [] };
  recs.forEach((rec, i) => {
    if (!isVisibleTo(rec, alias, taskScopeOf(run))) out.missing.push(ids[i]!);
    else {
      out.visible.push(rec);
      if (rec.status === 'running') out.pending.push(rec.task_id);
    }
  });
  return out;
}

export async function awaitSessions(run: RunContext, alias: string, args: Args): Promise<ToolResult> {
  const v = validate(args);
  if ('success' in v) return v;
  const deadline = Date.now() + v.timeoutMs;
  let wake: () => void = () => {};
  const wanted = new Set(v.ids);
  // Subscribe before the first look, so a task settling in between is not missed.
  const unsubscribe = run.services.delegation?.onSettled((id) => {
    if (wanted.has(id)) wake();
  });
  let snap: Snapshot;
  try {
    snap = await snapshot(run, alias, v.ids);
    while (
      (snap.pending.length > 0 || snap.missing.length > 0) &&
      Date.now() < deadline &&
      !run.signal.aborted
    ) {
      const pollMs = unsubscribe && snap.missing.length === 0 ? SAFETY_RECHECK_MS : POLL_MS;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(pollMs, Math.max(0, deadline - Date.now())));
        const onAbort = () => resolve();
        run.signal.addEventListener('abort', onAbort, { once: true });
        wake = () => {
          clearTimeout(timer);
          run.signal.removeEventListener('abort', onAbort);
          resolve();
        };
      });
      snap = await snapshot(run, alias, v.ids);
    }
  } finally {
    unsubscribe?.();
  }
  const failed = snap.visible.filter((r) => isFailedStatus(r.status)).map((r) => r.task_id);
  const complete = snap.pending.length === 0 && snap.missing.length === 0;
  const output = JSON.stringify(
    {
      status: complete ? 'complete' : 'timeout',
      completed: snap.visible.filter((r) => r.status === 'completed').length,
      pending: snap.pending,
      missing: snap.missing,
      failed,
      results: snap.visible.map((r) => recordView(r)),
    },
    null,
    2,
  );
  if (!complete) return fail(awaitText.pending, output);
  return failed.length > 0 ? fail(awaitText.failed, output) : ok(output);
}
