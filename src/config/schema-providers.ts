// Shapes of [providers.models.<type>.<alias>], [reliability] and [delegate] (spec/config.md §6–§7).
import type { z } from 'zod';
import { accepted, bool, nonNegInt, num, str, strArray, table, tableOf } from './schema-kit.ts';

export const providerEntrySchema = table({
  model: str().optional(),
  uri: str().optional(),
  api_key: str().optional(),
  requires_openai_auth: bool().default(false),
  fallback: strArray().default([]),
  fallback_models: strArray().default([]),
  temperature: num().optional(),
  timeout_secs: nonNegInt().optional(),
  max_tokens: nonNegInt().optional(),
  native_tools: bool().optional(),
  context_window: nonNegInt().optional(),
  extra_headers: tableOf(str()).default({}),
  /** Whether the model accepts images (media.md §3); absent: baton's table of known models (providers/vision.ts). */
  vision: bool().optional(),
  // Accepted for ZeroClaw compatibility, no effect in baton v1.
  kind: accepted(),
  pricing: accepted(),
  live_pricing: accepted(),
  think: accepted(),
  wire_api: accepted(),
});

export const providersSchema = table({
  /** `models.<type>.<alias>` */
  models: tableOf(tableOf(providerEntrySchema)).default({}),
});

/** [transcription] (media.md §3): which provider's OpenAI-compatible endpoint transcribes voice notes. */
export const transcriptionSchema = table({
  provider: str().optional(),
  model: str().default('whisper-1'),
});

export const reliabilitySchema = table({
  provider_retries: nonNegInt().default(2),
  provider_backoff_ms: nonNegInt().default(500),
  scheduler_retries: nonNegInt().default(2),
});

export const delegateSchema = table({
  timeout_secs: nonNegInt().default(120),
  agentic_timeout_secs: nonNegInt().default(300),
});

export type ProvidersShape = z.output<typeof providersSchema>;
export type ProviderEntryShape = z.output<typeof providerEntrySchema>;
