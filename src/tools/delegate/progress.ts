// A background task's progress object and heartbeat (delegate.md §11.6), written to its record while running.

import type { Logger } from '../../core/logger.ts';
import type { DelegateTasks } from '../../delegation/delegate-tasks.ts';
import type { RunObserver } from '../../run-contract/run-context.ts';

export const HEARTBEAT_MS = 30_000;
const NAME_CAP = 64;
const RECENT = 5;

interface ToolEntry {
  name: string;
  started_at: string;
  finished_at: string | null;
  success: boolean | null;
}

export interface ProgressTracker {
  observer: RunObserver;
  /** Writes the initial object and owner, and starts the heartbeat. */
  start(owner: string): Promise<void>;
  stop(): void;
}

export function createProgressTracker(
  tasks: DelegateTasks,
  taskId: string,
  timeoutBudgetSecs: number,
  logger: Logger,
  heartbeatMs = HEARTBEAT_MS,
): ProgressTracker {
  // Tool arguments, results, errors and prompts are never stored here: only names, times and counts.
  const p = {
    last_activity_at: new Date().toISOString(),
    iterations: 0,
    tools_completed: 0,
    last_tool: null as ToolEntry | null,
    timeout_budget_secs: timeoutBudgetSecs,
    recent_tools: [] as ToolEntry[],
    receipt_tail: [] as string[],
    elapsed_secs: 0,
  };
  const running: ToolEntry[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writes = Promise.resolve();
  const flush = (): Promise<void> => {
    const now = new Date().toISOString();
    p.last_activity_at = now;
    const snapshot = structuredClone(p);
    // Writes are chained so a later snapshot never lands before an earlier one.
    writes = writes
      .then(() => tasks.updateRunning(taskId, { progress: snapshot, heartbeat_at: now }).then(() => {}))
      .catch((err: unknown) => logger.warn({ err, task_id: taskId }, 'progress update failed'));
    return writes;
  };
  const observer: RunObserver = {
    async beforeModelRequest() {
      p.iterations += 1;
      await flush();
    },
    toolStarted(name) {
      const entry: ToolEntry = {
        name: name.slice(0, NAME_CAP),
        started_at: new Date().toISOString(),
        finished_at: null,
        success: null,
      };
      running.push(entry);
      p.last_tool = entry;
      void flush();
    },
    async toolFinished(name, success) {
      const i = running.findIndex((e) => e.name === name.slice(0, NAME_CAP));
      const entry =
        i >= 0
          ? running.splice(i, 1)[0]!
          : {
              name: name.slice(0, NAME_CAP),
              started_at: new Date().toISOString(),
              finished_at: null,
              success: null,
            };
      entry.finished_at = new Date().toISOString();
      entry.success = success;
      p.tools_completed += 1;
      p.last_tool = running.at(-1) ?? entry;
      p.recent_tools = [...p.recent_tools, { ...entry }].slice(-RECENT);
      await flush();
    },
  };
  return {
    observer,
    async start(owner) {
      await tasks.updateRunning(taskId, {
        owner,
        progress: structuredClone(p),
        heartbeat_at: new Date().toISOString(),
      });
      timer = setInterval(() => {
        void tasks
          .updateRunning(taskId, { heartbeat_at: new Date().toISOString() })
          .catch((err: unknown) => logger.warn({ err, task_id: taskId }, 'heartbeat failed'));
      }, heartbeatMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
