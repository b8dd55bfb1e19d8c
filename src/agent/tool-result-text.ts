// What the model sees of a tool result (spec README "What the model sees"), with max_tool_result_chars.
import type { ToolResult } from '../run-contract/tool.ts';

export function modelVisibleText(result: ToolResult): string {
  if (result.success || result.error === null) return result.output;
  return result.output ? `${result.output}\n\nError: ${result.error}` : `Error: ${result.error}`;
}

/** Cuts text longer than `max` characters (code points) and says how much was cut (delegate.md §9.5). */
export function truncateToolText(text: string, max: number | undefined): string {
  if (max === undefined) return text;
  const chars = [...text];
  if (chars.length <= max) return text;
  return `${chars.slice(0, max).join('')}\n[… ${chars.length - max} characters truncated]`;
}
