// Whose background tasks a run may see and manage: the root conversation that started them (its session key:
// the channel conversation id, or a CLI/cron run's own key), carried down delegations and subagents.
import type { RunContext } from './run-context.ts';

export const taskScopeOf = (run: Pick<RunContext, 'taskScope' | 'sessionKey'>): string =>
  run.taskScope ?? run.sessionKey;
