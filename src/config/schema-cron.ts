// Shapes of [cron.<alias>] and its `schedule` forms, and of [peer_groups.<name>] (spec/config.md §13–§14).
import { z } from 'zod';
import { RFC3339_REQUIRED, unknownTimeZone } from './config-messages.ts';
import {
  accepted,
  bool,
  enumOf,
  intAtLeast,
  reissue,
  str,
  strArray,
  table,
  tableOf,
  typeError,
} from './schema-kit.ts';
import { isTable } from './toml-path.ts';
import type { CronSchedule } from './types.ts';

const isTimeZone = (tz: string): boolean => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

// `at` is written as an RFC 3339 string; a bare TOML datetime is accepted too and stored as ISO text.
const instant = () =>
  z.unknown().transform((value, ctx): string => {
    if (value instanceof Date) return value.toISOString();
    if (typeof value !== 'string') {
      ctx.addIssue({ code: 'custom', message: typeError('string')({ input: value }) });
      return z.NEVER;
    }
    if (!/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}/.test(value) || Number.isNaN(Date.parse(value))) {
      ctx.addIssue({ code: 'custom', message: RFC3339_REQUIRED });
      return z.NEVER;
    }
    return value;
  });

const scheduleForms = {
  cron: table({
    kind: z.literal('cron'),
    expr: str(),
    tz: str()
      .refine(isTimeZone, { error: (issue) => unknownTimeZone(String(issue.input)) })
      .default('UTC'),
  }),
  every: table({ kind: z.literal('every'), every_ms: intAtLeast(1) }),
  at: table({ kind: z.literal('at'), at: instant() }),
};
const scheduleKinds = ['cron', 'every', 'at'] as const;

/** The `kind` key picks the form, so keys of another form are reported as unknown, not as a union failure. */
const scheduleSchema = z.unknown().transform((value, ctx): CronSchedule => {
  if (!isTable(value)) {
    ctx.addIssue({ code: 'custom', message: typeError('table')({ input: value }) });
    return z.NEVER;
  }
  const kind = reissue(enumOf(scheduleKinds), value.kind, ctx, ['kind']);
  if (!kind.ok) return z.NEVER;
  const form = reissue(scheduleForms[kind.data], value, ctx);
  return form.ok ? form.data : z.NEVER;
});

export const cronJobSchema = table({
  name: str().default('cron-job'),
  job_type: enumOf(['shell', 'agent']).default('shell'),
  schedule: scheduleSchema,
  prompt: str().default(''),
  command: str().optional(),
  enabled: bool().default(true),
  model: str().optional(),
  allowed_tools: strArray().optional(),
  uses_memory: bool().default(true),
  session_target: enumOf(['isolated', 'main']).default('isolated'),
  delivery: table({ channel: str(), recipient: str() }).optional(),
  shell_output_format: enumOf(['wrapped', 'raw']).optional(),
});

export const cronSchema = tableOf(cronJobSchema);

export const peerGroupSchema = table({
  channel: str(),
  agents: strArray().default([]),
  external_peers: strArray().default([]),
  /** Who may answer approvals; absent: external_peers do (config.md §13). */
  approvers: strArray().optional(),
  // Accepted: no effect on the behaviour in the spec.
  ignore: accepted(),
  output_modality: accepted(),
  admin_for_agent_scope: accepted(),
});

export const peerGroupsSchema = tableOf(peerGroupSchema);

export type CronJobShape = z.output<typeof cronJobSchema>;
