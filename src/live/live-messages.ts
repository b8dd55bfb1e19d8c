// What a chat is told live (live.md): background task notices.
import type { TerminalStatus } from '../delegation/task-records.ts';

const OUTCOME: Record<TerminalStatus, string> = {
  completed: 'completed',
  failed: 'failed',
  cancelled: 'was cancelled',
  lost: 'was lost (its worker stopped)',
  timed_out: 'timed out',
};

/** `12s`, `3m 05s`, `1h 02m`. */
export function elapsedText(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (s < 3600) return `${Math.floor(s / 60)}m ${pad(s % 60)}s`;
  return `${Math.floor(s / 3600)}h ${pad(Math.floor((s % 3600) / 60))}m`;
}

/** live.md §4: the task id, the target alias, the final state, the elapsed time, and what to do next. */
export const backgroundNoticeText = (taskId: string, target: string, status: TerminalStatus, ms: number) =>
  `🔔 Background task ${taskId} (${target}) ${OUTCOME[status]} after ${elapsedText(ms)}. Ask me for its result.`;
