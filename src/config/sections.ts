// The top-level sections of the file, their schemas, and which of them are fatal (spec/config.md §4).
import type { z } from 'zod';
import { agentsSchema } from './schema-agents.ts';
import { channelsSchema } from './schema-channels.ts';
import { gatewaySchema, redisSchema, workerSchema } from './schema-core.ts';
import { costSchema } from './schema-cost.ts';
import { cronSchema, peerGroupsSchema } from './schema-cron.ts';
import { riskProfilesSchema, runtimeProfilesSchema } from './schema-profiles.ts';
import {
  delegateSchema,
  providersSchema,
  reliabilitySchema,
  transcriptionSchema,
} from './schema-providers.ts';

export const sectionSchemas = {
  redis: redisSchema,
  gateway: gatewaySchema,
  worker: workerSchema,
  providers: providersSchema,
  reliability: reliabilitySchema,
  delegate: delegateSchema,
  cost: costSchema,
  risk_profiles: riskProfilesSchema,
  runtime_profiles: runtimeProfilesSchema,
  agents: agentsSchema,
  channels: channelsSchema,
  peer_groups: peerGroupsSchema,
  cron: cronSchema,
  transcription: transcriptionSchema,
};

export type SectionName = keyof typeof sectionSchemas;
export type SectionData = { [K in SectionName]: z.output<(typeof sectionSchemas)[K]> };

/** Canonical order: diagnostics and `droppedSections` follow it. */
export const SECTION_NAMES = Object.keys(sectionSchemas) as SectionName[];

/** Every key the top level accepts; anything else is an unknown-key warning (e.g. ZeroClaw's `[memory]`). */
export const TOP_LEVEL_KEYS: ReadonlySet<string> = new Set(['schema_version', ...SECTION_NAMES]);

/**
 * An error in one of these stops the process: without Redis or the HTTP API there is nothing left to repair
 * the file with. `worker` is not listed by the spec; like `reliability` it falls back to its defaults.
 */
export const FATAL_SECTIONS: ReadonlySet<string> = new Set(['schema_version', 'redis', 'gateway']);

export function isSectionName(name: string): name is SectionName {
  return Object.hasOwn(sectionSchemas, name);
}
