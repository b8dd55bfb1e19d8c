// Shape of [agents.<alias>], including both `delegates` entry forms (spec/config.md §9, §9.1).
import { z } from 'zod';
import { DELEGATE_UNKNOWN_FIELD } from './config-messages.ts';
import { bool, enumOf, reissue, str, strArray, table, tableOf, typeError } from './schema-kit.ts';
import { isTable } from './toml-path.ts';
import type { DelegateMode } from './types.ts';

const delegateObjectSchema = z.object({
  agent: str(),
  mode: enumOf(['bounded', 'independent']).default('bounded'),
});

/**
 * `"reviewer"` (bounded) or `{ agent, mode }`. Unlike any other table, an extra key here is an error, not a
 * warning: ZeroClaw rejects it, and a typo in `mode` must not silently downgrade an independent target.
 */
const delegateEntrySchema = z.unknown().transform((value, ctx): { agent: string; mode: DelegateMode } => {
  if (typeof value === 'string') return { agent: value, mode: 'bounded' };
  if (!isTable(value)) {
    ctx.addIssue({ code: 'custom', message: typeError('string or table')({ input: value }) });
    return z.NEVER;
  }
  for (const key of Object.keys(value)) {
    if (key !== 'agent' && key !== 'mode')
      ctx.addIssue({ code: 'custom', path: [key], message: DELEGATE_UNKNOWN_FIELD });
  }
  const known = { agent: value.agent, mode: value.mode };
  const entry = reissue(delegateObjectSchema, known, ctx);
  return entry.ok ? entry.data : z.NEVER;
});

const workspaceSchema = table({
  path: str().optional(),
  access: tableOf(enumOf(['read', 'write', 'read_write'])).default({}),
  unrestricted_filesystem: bool().default(false),
  read_memory_from: strArray().default([]),
});

export const agentSchema = table({
  enabled: bool().default(true),
  channels: strArray().default([]),
  model_provider: str().default(''),
  risk_profile: str().default(''),
  runtime_profile: str().default(''),
  delegate_same_risk_profile: bool().default(true),
  delegates: z.array(delegateEntrySchema, { error: typeError('array') }).default([]),
  cron_jobs: strArray().default([]),
  // Accepted: their meaning is outside the spec.
  skill_bundles: strArray().optional(),
  knowledge_bundles: strArray().optional(),
  mcp_bundles: strArray().optional(),
  acp_enable_mcp: bool().optional(),
  classifier_provider: str().optional(),
  summary_provider: str().optional(),
  tts_provider: str().optional(),
  transcription_provider: str().optional(),
  workspace: workspaceSchema.prefault({}),
  memory: table({ backend: str().optional() }).optional(),
});

export const agentsSchema = tableOf(agentSchema);

export type AgentShape = z.output<typeof agentSchema>;
