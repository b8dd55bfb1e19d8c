// Resolves a provider ref into its ordered fallback candidates (delegate.md §10.1).
import { providerCredential } from '../config/credentials.ts';
import { DEFAULT_PROVIDER_URI } from '../config/defaults.ts';
import { ownEntry, providerOf } from '../config/lookup.ts';
import type { ProviderEntry } from '../config/types.ts';
import type { Logger } from '../core/logger.ts';
import type { ServedBy } from './types.ts';

export const SUPPORTED_PROVIDER_TYPES = ['anthropic', 'openai', 'openrouter', 'ollama', 'custom'] as const;
export type ProviderType = (typeof SUPPORTED_PROVIDER_TYPES)[number];

export interface Candidate {
  /** Position in the chain: 0 is the requested candidate. */
  index: number;
  type: ProviderType;
  entry: ProviderEntry;
  model: string;
  baseUri: string;
  apiKey: string | undefined;
  nativeTools: boolean;
  label: ServedBy;
}

export function isSupportedType(type: string): type is ProviderType {
  return (SUPPORTED_PROVIDER_TYPES as readonly string[]).includes(type);
}

/** Builds the `Failed to create model_provider ...` text that callers show (config.md §6.1, §9). */
export function providerCreateError(type: string, agent: string, err: unknown): Error {
  const reason = err instanceof Error ? err.message : String(err);
  return new Error(`Failed to create model_provider '${type}' for agent '${agent}': ${reason}`, {
    cause: err,
  });
}

/** Checks one entry; returns the reason it cannot be used, or its type and base uri. */
function checkEntry(entry: ProviderEntry): { type: ProviderType; baseUri: string } | string {
  if (!isSupportedType(entry.type)) return `unsupported provider type "${entry.type}"`;
  if (entry.model === undefined || entry.model.trim() === '') {
    return `provider "${entry.ref}" has no model configured (set providers.models.${entry.ref}.model)`;
  }
  const baseUri = entry.uri ?? ownEntry(DEFAULT_PROVIDER_URI, entry.type);
  if (baseUri === undefined || baseUri.trim() === '') {
    return `provider "${entry.ref}" of type "${entry.type}" needs a uri`;
  }
  return { type: entry.type, baseUri: baseUri.replace(/\/+$/, '') };
}

function candidatesOf(
  entry: ProviderEntry,
  checked: { type: ProviderType; baseUri: string },
  env: Record<string, string | undefined>,
): Omit<Candidate, 'index'>[] {
  const models = [entry.model ?? '', ...entry.fallback_models].map((m) => m.trim()).filter((m) => m !== '');
  return models.map((model) => ({
    type: checked.type,
    entry,
    model,
    baseUri: checked.baseUri,
    apiKey: providerCredential(entry, env),
    nativeTools: entry.native_tools !== false,
    label: { provider: entry.ref, providerType: entry.type, model },
  }));
}

/**
 * The primary's problems throw (the agent cannot run at all); a broken or unconfigured fallback
 * is skipped with a warning so the primary still serves.
 */
export function resolveCandidates(
  ref: string,
  providers: Record<string, ProviderEntry>,
  env: Record<string, string | undefined>,
  logger: Logger,
): Candidate[] {
  const primary = providerOf({ providers }, ref);
  if (primary === undefined) throw new Error(`no provider configured under "${ref}"`);
  const checked = checkEntry(primary);
  if (typeof checked === 'string') throw new Error(checked);
  const list = candidatesOf(primary, checked, env);
  for (const fallbackRef of primary.fallback) {
    const entry = providerOf({ providers }, fallbackRef);
    if (entry === undefined) {
      logger.warn({ provider: ref, fallback: fallbackRef }, 'provider fallback is not configured; skipped');
      continue;
    }
    const fb = checkEntry(entry);
    if (typeof fb === 'string') {
      logger.warn(
        { provider: ref, fallback: fallbackRef, reason: fb },
        'provider fallback cannot be used; skipped',
      );
      continue;
    }
    list.push(...candidatesOf(entry, fb, env));
  }
  return list.map((c, index) => ({ ...c, index }));
}
