// The delegate tool's parameter schema as the model sees it (delegate.md §2), with the roster placeholder filled.
import { agentParamDescription } from './delegate-messages.ts';

// The delegate tool is built per run, and a new schema object per run made every request serialise it again
// (history-window.ts keeps schema lengths per object): one schema object per roster. Few rosters exist (one per
// caller and config), so the bound only matters after many reloads.
const byRoster = new Map<string, Record<string, unknown>>();
const MAX_ROSTERS = 256;

export function delegateParameters(roster: readonly string[]): Record<string, unknown> {
  const key = JSON.stringify(roster);
  let schema = byRoster.get(key);
  if (!schema) {
    if (byRoster.size >= MAX_ROSTERS) byRoster.clear();
    schema = buildParameters(roster);
    byRoster.set(key, schema);
  }
  return schema;
}

function buildParameters(roster: readonly string[]): Record<string, unknown> {
  return {
    type: 'object',
    additionalProperties: false,
    required: [],
    properties: {
      action: {
        type: 'string',
        enum: ['delegate', 'check_result', 'list_results', 'cancel_task', 'await_sessions'],
        default: 'delegate',
        description:
          "Action to perform. Default: 'delegate'. Use 'check_result' to retrieve a background task result, 'await_sessions' to wait for multiple background results, 'list_results' to list all background tasks, 'cancel_task' to cancel a running background task.",
      },
      agent: { type: 'string', minLength: 1, description: agentParamDescription(roster) },
      prompt: { type: 'string', minLength: 1, description: 'The task/prompt to send to the sub-agent' },
      context: {
        type: 'string',
        description: 'Optional context to prepend (e.g. relevant code, prior findings)',
      },
      background: {
        type: 'boolean',
        default: false,
        description:
          'When true, the sub-agent runs in a background job and returns a task_id immediately. Results are stored to workspace/delegate_results/{task_id}.json.',
      },
      parallel: {
        type: 'array',
        items: { type: 'string' },
        description:
          "Array of agent names to run concurrently with the same prompt. Returns all results when all agents complete. Cannot be combined with 'background'.",
      },
      task_id: {
        type: 'string',
        description: 'Task ID for check_result/cancel_task actions (returned by background delegation).',
      },
      task_ids: {
        type: 'array',
        items: { type: 'string' },
        minItems: 1,
        maxItems: 128,
        description: 'Task IDs for await_sessions.',
      },
      timeout_ms: {
        type: 'integer',
        minimum: 0,
        maximum: 120000,
        description:
          'Maximum milliseconds for await_sessions to wait before returning partial results. Capped at 120000.',
      },
    },
  };
}
