// Risk level of each builtin tool as the approval rules see it; shell is decided per command.
import { classifyCommand } from '../../security/command-policy.ts';
import { isExecConfigPath } from '../../security/exec-config.ts';
import type { CommandRisk } from '../../security/types.ts';

export const TOOL_RISK: Record<string, CommandRisk> = {
  file_read: 'low',
  memory_recall: 'low',
  memory_store: 'medium',
  memory_forget: 'medium',
  file_write: 'medium',
  /** Sends workspace bytes to the turn's own chat. */
  send_file: 'medium',
  /** A floor for callers that cannot see the arguments; riskOf() classifies the actual command. */
  shell: 'medium',
};

/** Tools that only read; every other builtin tool acts and refuses at `level = "readonly"`. */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(['file_read', 'memory_recall']);

const field = (args: unknown, name: string): unknown =>
  typeof args === 'object' && args !== null && name in args
    ? (args as Record<string, unknown>)[name]
    : undefined;

/**
 * Risk of one call: shell by its command (unparsable counts as high), file_write high for a file that
 * configures execution, others from TOOL_RISK (unknown: medium).
 */
export function riskOf(tool: string, args: unknown): CommandRisk {
  if (tool === 'shell') {
    const command = field(args, 'command');
    return typeof command === 'string' ? classifyCommand(command) : 'high';
  }
  const path = field(args, 'path');
  if (tool === 'file_write' && typeof path === 'string' && isExecConfigPath(path)) return 'high';
  return TOOL_RISK[tool] ?? 'medium';
}
