// A running delegate task record whose owner stopped beating long ago: what the reaper must mark lost.
import type { TaskRecord } from '../../src/delegation/task-records.ts';

export function silentRunningTask(taskId: string, over: Partial<TaskRecord> = {}): TaskRecord {
  const old = new Date(Date.now() - 200_000).toISOString();
  return {
    task_id: taskId,
    kind: 'delegate',
    agent: 'writer',
    chain: ['main'],
    mode: 'bounded',
    status: 'running',
    output: null,
    error: null,
    depth: 1,
    sender: 'test:user',
    owner: 'dead:1:x',
    heartbeat_at: old,
    progress: null,
    timeout_budget_secs: null,
    parent_tool_call_id: 'x',
    started_at: old,
    finished_at: null,
    // The conversation of the tests that manage it (background tasks are scoped to their root conversation).
    scope: 'bg-chat',
    ...over,
  };
}
