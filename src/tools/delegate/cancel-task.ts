// The cancel_task steps after the checks (delegate.md §12.4), shared by the delegate tool and the dashboard.
import type { DelegateTasks } from '../../delegation/delegate-tasks.ts';
import type { DelegationServices } from '../../delegation/delegation-services.ts';
import type { TaskRecord } from '../../delegation/task-records.ts';
import { CANCELLED_BY_USER, cancelledRunning, cancelledSettled, notRunning } from './delegate-messages.ts';
import { statusName } from './views.ts';

export type CancelOutcome = { cancelled: true; text: string } | { cancelled: false; text: string };

/**
 * CAS running → cancelled, then the cross-process abort and removal of a still-queued job. `rec` is the record
 * the caller may see (visibility is the caller's check). A task that just settled gets the "not running" text.
 */
export async function cancelRunningTask(
  tasks: Pick<DelegateTasks, 'get' | 'settle'>,
  delegation: Pick<DelegationServices, 'jobState' | 'publishCancel' | 'removeWaiting'> | null | undefined,
  rec: TaskRecord,
): Promise<CancelOutcome> {
  const id = rec.task_id;
  if (rec.status !== 'running') return { cancelled: false, text: notRunning(id, statusName(rec.status)) };
  const state = delegation ? await delegation.jobState(id) : 'unknown';
  const won = await tasks.settle(id, 'cancelled', { error: CANCELLED_BY_USER });
  if (!won) {
    const now = await tasks.get(id);
    return { cancelled: false, text: notRunning(id, now ? statusName(now.status) : statusName('completed')) };
  }
  if (delegation) {
    await delegation.publishCancel(id);
    if (state === 'waiting' || state === 'delayed') await delegation.removeWaiting(id);
  }
  const live = state === 'waiting' || state === 'delayed' || state === 'active';
  return { cancelled: true, text: live ? cancelledRunning(id) : cancelledSettled(id) };
}
