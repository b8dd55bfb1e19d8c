// The tool registry: the set of tools one run may call, by name, in a stable order.
import type { ToolSpec } from '../providers/types.ts';
import type { RunContext } from './run-context.ts';
import { type Tool, toolSpec } from './tool.ts';

export interface ToolRegistry {
  readonly names: readonly string[];
  get(name: string): Tool | undefined;
  specs(): ToolSpec[];
  /** A registry holding only the tools whose names pass `keep`. */
  filter(keep: (name: string) => boolean): ToolRegistry;
}

export interface ToolSetOptions {
  /** A spawn site's allowlist (cron `allowed_tools`), intersected with the policy's set. */
  allowlist?: readonly string[];
  /** Tools the spawn site removes (cron: scheduler mutation tools, memory tools). */
  remove?: readonly string[];
}

/** Builds the tool set of one run (src/tools/tool-set.ts); injected so agent/ never imports tools/. */
export type BuildToolSet = (run: RunContext, opts?: ToolSetOptions) => ToolRegistry;

export function createToolRegistry(tools: readonly Tool[]): ToolRegistry {
  const byName = new Map<string, Tool>();
  for (const t of tools) if (!byName.has(t.name)) byName.set(t.name, t);
  const list = [...byName.values()];
  return {
    names: list.map((t) => t.name),
    get: (name) => byName.get(name),
    specs: () => list.map(toolSpec),
    filter: (keep) => createToolRegistry(list.filter((t) => keep(t.name))),
  };
}
