import type { Tool } from '../../run-contract/tool.ts';
import { createToolRegistry, type ToolRegistry } from '../../run-contract/tool-registry.ts';
import { isToolAdmitted } from '../../security/tool-filter.ts';
import type { SecurityPolicy } from '../../security/types.ts';

/** Tools that act on the caller's identity; a bounded child must not act as its caller. */
const BOUNDED_REMOVED = new Set(['delegate', 'spawn_subagent', 'model_switch']);
/** Their command decisions stay with the caller's command policy (approvals.md §8). */
export const CALLER_OWNED_COMMAND_TOOLS = new Set([
  'shell',
  'schedule',
  'cron_add',
  'cron_update',
  'cron_run',
]);

const COMMAND_POLICY_FIELDS = [
  'allowedCommands',
  'forbiddenPaths',
  'shellEnvPassthrough',
  'shellTimeoutSecs',
  'blockHighRiskCommands',
  'requireApprovalForMediumRisk',
  // The caller's sandbox bounds the commands its policy lets through (config.md §10.2).
  'sandbox',
] as const;

/** A caller-owned command tool that judges commands with the caller's policy while running in the child. */
function withCallerCommandPolicy(tool: Tool, callerPolicy: SecurityPolicy): Tool {
  return {
    ...tool,
    execute(input, ctx) {
      const policy = { ...ctx.run.policy };
      for (const f of COMMAND_POLICY_FIELDS) Object.assign(policy, { [f]: callerPolicy[f] });
      return tool.execute(input, { ...ctx, run: { ...ctx.run, policy } });
    },
  };
}

export interface BoundedToolsInput {
  callerTools: ToolRegistry;
  callerPolicy: SecurityPolicy;
  /** The target's resolved policy: its allowed/excluded/deny_all rule is the admission rule. */
  targetPolicy: SecurityPolicy;
  /** The target-bound delegate instance, when granted. */
  grant: Tool | null;
}

/** §9.3 bounded: caller's live set minus identity tools, through the target's admission rule. */
export function boundedChildTools(input: BoundedToolsInput): ToolRegistry {
  const kept: Tool[] = [];
  for (const name of input.callerTools.names) {
    if (BOUNDED_REMOVED.has(name) || !isToolAdmitted(input.targetPolicy, name)) continue;
    const tool = input.callerTools.get(name);
    if (!tool) continue;
    // Memory tools resolve their store from the run's agent alias, which in the child is the target.
    kept.push(
      CALLER_OWNED_COMMAND_TOOLS.has(name) ? withCallerCommandPolicy(tool, input.callerPolicy) : tool,
    );
  }
  if (input.grant) kept.push(input.grant);
  return createToolRegistry(kept);
}

/** §9.4: the target profile allows delegation, the caller has delegate, and the target's rule admits it. */
export function isGrantedSubDelegation(childPolicy: SecurityPolicy, callerTools: ToolRegistry): boolean {
  return (
    childPolicy.delegationMode === 'allow' &&
    callerTools.names.includes('delegate') &&
    isToolAdmitted(childPolicy, 'delegate')
  );
}
