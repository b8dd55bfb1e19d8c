// Risk level of each builtin tool as the approval rules see it; shell is decided per command.
import type { CommandRisk } from '../../security/types.ts';

export const TOOL_RISK: Record<string, CommandRisk> = {
  file_read: 'low',
  memory_recall: 'low',
  memory_store: 'medium',
  memory_forget: 'medium',
  file_write: 'medium',
  /** Placeholder: the shell tool classifies each command (security/command-risk.ts) and asks when needed. */
  shell: 'medium',
};

/** Tools that only read; every other builtin tool acts and refuses at `level = "readonly"`. */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(['file_read', 'memory_recall']);
