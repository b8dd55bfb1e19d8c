// Shapes of [risk_profiles.<p>] and [runtime_profiles.<p>] (spec/config.md §10–§11).
import type { z } from 'zod';
import { TREE_ITERATIONS_AT_LEAST_1 } from './config-messages.ts';
import {
  arrayOf,
  bool,
  enumOf,
  intAtLeast,
  nonNegInt,
  openTable,
  str,
  strArray,
  strOrStrArray,
  table,
  tableOf,
} from './schema-kit.ts';
import { SANDBOX_BACKEND_VALUES } from './types.ts';

const approvalRouteSchema = table({
  // Its absence is reported by rules.ts with the spec's own text, so the shape lets it be missing.
  approver_channel: str().optional(),
  approver_recipient: str().default(''),
  on_no_approver: enumOf(['deny', 'inherit-originator']).default('deny'),
  timeout_secs: nonNegInt().default(120),
});

export const riskProfileSchema = table({
  level: enumOf(['readonly', 'supervised', 'full']).default('supervised'),
  workspace_only: bool().default(true),
  allowed_commands: strArray().optional(),
  forbidden_paths: strArray().optional(),
  require_approval_for_medium_risk: bool().default(true),
  block_high_risk_commands: bool().default(true),
  shell_env_passthrough: strArray().default([]),
  auto_approve: strArray().default([]),
  always_ask: strArray().default([]),
  allowed_roots: strArray().default([]),
  // ZeroClaw spellings of allowed_roots; merged into it.
  allowed_path: strOrStrArray().optional(),
  allowed_paths: strOrStrArray().optional(),
  delegation_policy: table({ mode: enumOf(['forbidden', 'allow']).default('forbidden') }).prefault({}),
  allowed_tools: strArray().default([]),
  excluded_tools: strArray().default([]),
  deny_all_tools: bool().default(false),
  approval_route: approvalRouteSchema.optional(),
  sandbox_enabled: bool().optional(),
  // All ZeroClaw values load; the ones baton lacks warn and fall back to "auto" (semantic-warnings.ts).
  sandbox_backend: enumOf(SANDBOX_BACKEND_VALUES).default('auto'),
  sandbox_allow: arrayOf(enumOf(['network'])).default([]),
  firejail_args: strArray().optional(),
});

export const runtimeProfileSchema = table({
  agentic: bool().default(false),
  max_tool_iterations: nonNegInt().default(0),
  max_execution_tree_iterations: intAtLeast(1, TREE_ITERATIONS_AT_LEAST_1).optional(),
  max_actions_per_hour: nonNegInt().default(20),
  max_cost_per_day_cents: nonNegInt().default(500),
  shell_timeout_secs: nonNegInt().default(60),
  max_delegation_depth: nonNegInt().default(0),
  delegation_timeout_secs: nonNegInt().optional(),
  agentic_timeout_secs: nonNegInt().optional(),
  parallel_tools: bool().default(false),
  tool_call_dedup_exempt: strArray().default([]),
  strict_tool_parsing: bool().default(false),
  max_tool_result_chars: nonNegInt().optional(),
  // Context-size controls: accepted and typed; max_context_tokens and max_history_messages bound the
  // history sent with each request (src/agent/context-budget.ts), the others have no effect.
  max_context_tokens: nonNegInt().optional(),
  max_history_messages: nonNegInt().optional(),
  max_system_prompt_chars: nonNegInt().optional(),
  keep_tool_context_turns: nonNegInt().optional(),
  memory_recall_limit: nonNegInt().optional(),
  thinking: openTable({ default_level: str().optional(), native_thinking: bool().optional() }).optional(),
  tool_receipts: openTable({ enabled: bool().default(false) }).optional(),
});

export const riskProfilesSchema = tableOf(riskProfileSchema);
export const runtimeProfilesSchema = tableOf(runtimeProfileSchema);

export type RiskProfileShape = z.output<typeof riskProfileSchema>;
export type RuntimeProfileShape = z.output<typeof runtimeProfileSchema>;
