// The Cancel button's address keeps a task id inside its own path segment (ops.js POSTs to it with the CSRF
// token): a damaged record's id must not point the button at another route.
import { describe, expect, it } from 'vitest';
import { type TaskRow, tasksFragment } from '../../../src/web/ops/tasks-page.ts';

const row = (task_id: string): TaskRow => ({
  task_id,
  kind: 'delegate',
  agent: 'writer',
  chain: ['main'],
  mode: 'bounded',
  status: 'running',
  error: null,
  depth: 1,
  started_at: '2026-01-01T00:00:00.000Z',
  sender: null,
  owner: null,
  timeout_budget_secs: null,
  elapsed_secs: 1,
  finished_at: null,
  heartbeat_at: null,
  progress: null,
  parent_tool_call_id: null,
  output: null,
});

describe('tasks page Cancel address', () => {
  it('encodes the task id as one path segment', () => {
    const body = tasksFragment([row('../config/risk-profiles/default/delegation-policy?')]).value;
    expect(body).toContain(
      'data-post="/ui/tasks/..%2Fconfig%2Frisk-profiles%2Fdefault%2Fdelegation-policy%3F/cancel"',
    );
  });
});
