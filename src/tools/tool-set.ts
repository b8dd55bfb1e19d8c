// Builds the tool set of one run: every tool baton has, then the filters of subagents.md §6.
import { executeRun } from '../agent/execute-run.ts';
import { channelOf } from '../config/lookup.ts';
import type { RunContext } from '../run-contract/run-context.ts';
import type { Tool } from '../run-contract/tool.ts';
import { createToolRegistry, type ToolRegistry, type ToolSetOptions } from '../run-contract/tool-registry.ts';
import { filterToolNames, intersectAllowlist } from '../security/tool-filter.ts';
import { createFileReadTool } from './builtin/file-read.ts';
import { createFileWriteTool } from './builtin/file-write.ts';
import { createMemoryForgetTool } from './builtin/memory-forget.ts';
import { createMemoryRecallTool } from './builtin/memory-recall.ts';
import { createMemoryStoreTool } from './builtin/memory-store.ts';
import { createModelSwitchTool } from './builtin/model-switch.ts';
import { createSendFileTool } from './builtin/send-file.ts';
import { createShellTool } from './builtin/shell.ts';
import { createCronTools } from './cron/cron-tools.ts';
import { capabilityOf } from './delegate/capability.ts';
import { createDelegateTool } from './delegate/delegate-tool.ts';
import { createSpawnSubagentTool } from './subagent/spawn-subagent.ts';

export const MEMORY_TOOLS = [
  'memory_store',
  'memory_recall',
  'memory_forget',
  'memory_export',
  'memory_purge',
];
export const SCHEDULER_MUTATION_TOOLS = ['cron_add', 'cron_update', 'cron_remove', 'cron_run', 'schedule'];

/** The builtin tools hold no run state (each call gets its ToolContext), so they are built once. */
let builtins: { plain: Tool[]; withCron: Tool[] } | undefined;

function allTools(run: RunContext): Tool[] {
  builtins ??= (() => {
    const plain: Tool<unknown>[] = [
      createShellTool(),
      createFileReadTool(),
      createFileWriteTool(),
      createSendFileTool(),
      createMemoryStoreTool(),
      createMemoryRecallTool(),
      createMemoryForgetTool(),
      createModelSwitchTool(),
      createSpawnSubagentTool({ buildChildTools: (child) => buildToolSet(child), executeRun }),
    ];
    return { plain, withCron: [...plain, ...createCronTools()] };
  })();
  // Cron tools are offered only where a scheduler runs; a process without one would offer tools that cannot act.
  return [...(run.services.cron ? builtins.withCron : builtins.plain)];
}

export function buildToolSet(run: RunContext, opts: ToolSetOptions = {}): ToolRegistry {
  const tools = allTools(run);
  // The delegate instance reads the final (filtered) set lazily: it is the ceiling of bounded children.
  let registry: ToolRegistry | undefined;
  const delegate = delegateTool(run, () => registry ?? createToolRegistry([]));
  if (delegate) tools.push(delegate);
  let names = filterToolNames(
    tools.map((t) => t.name),
    run.policy,
  );
  names = intersectAllowlist(names, opts.allowlist);
  const channelExcluded = run.origin
    ? (channelOf(run.services.config, run.origin.channel)?.excluded_tools ?? [])
    : [];
  const removed = new Set([...channelExcluded, ...(opts.remove ?? [])]);
  if (run.isSubagent) removed.add('model_switch');
  const keep = new Set(names.filter((n) => !removed.has(n)));
  registry = createToolRegistry(tools).filter((n) => keep.has(n));
  return registry;
}

/** delegate.md §3, §7: present when an agent is configured and the run has a delegate capability. */
function delegateTool(run: RunContext, registry: () => ToolRegistry): Tool | null {
  const cap = capabilityOf(run);
  if (!cap || Object.keys(run.services.config.agents).length === 0) return null;
  return createDelegateTool({
    capability: cap,
    callerTools: registry,
    rosterFor: cap.boundAlias,
    rosterPolicy: run.policy,
    config: run.services.config,
    deps: { buildToolSet, executeRun },
  });
}
