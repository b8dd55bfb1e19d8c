// Which candidates of a chain can serve in this process, and why the first of them does (the startup line).
import { hasCredentialHeader } from '../config/credentials.ts';
import { DEFAULT_CREDENTIAL_ENV, DEFAULT_PROVIDER_URI } from '../config/defaults.ts';
import { ownEntry } from '../config/lookup.ts';
import type { ProviderEntry } from '../config/types.ts';
import { createSilentLogger } from '../core/logger.ts';
import { type Candidate, resolveCandidates } from './candidates.ts';
import { modelChoiceLine } from './provider-messages.ts';

const HOSTED_TYPES: ReadonlySet<string> = new Set(['anthropic', 'openai', 'openrouter']);

/** A hosted type at its public endpoint with no credential at all: every request would be refused (401). */
export function lacksKey(c: Candidate): boolean {
  return (
    HOSTED_TYPES.has(c.type) &&
    c.baseUri === ownEntry(DEFAULT_PROVIDER_URI, c.type) &&
    c.apiKey === undefined &&
    !hasCredentialHeader(c.entry)
  );
}

export interface CandidateSelection {
  /** The chain as it runs, renumbered from 0. */
  usable: Candidate[];
  /** Keyless hosted candidates left out, in chain order. */
  skipped: Candidate[];
}

/**
 * Skips keyless hosted candidates [baton decision], which lets one chain mean "the first key that is set, else
 * the local model". When nothing else is left the chain stays as configured, so the request fails as before.
 */
export function selectCandidates(all: readonly Candidate[]): CandidateSelection {
  const usable = all.filter((c) => !lacksKey(c));
  if (usable.length === 0 || usable.length === all.length) return { usable: [...all], skipped: [] };
  return { usable: usable.map((c, index) => ({ ...c, index })), skipped: all.filter(lacksKey) };
}

/** The name of the environment variable a type's default key comes from (anthropic, openai, openrouter). */
export function defaultKeyEnv(type: string): string | undefined {
  return ownEntry(DEFAULT_CREDENTIAL_ENV, type);
}

/** Where a candidate's key comes from, as an operator would set it: a variable name or a config path. */
export function keyName(c: Candidate): string {
  const own = c.entry.api_key !== undefined && c.entry.api_key !== '';
  return (!own && defaultKeyEnv(c.type)) || `providers.models.${c.entry.ref}.api_key`;
}

/** The variables of skipped candidates, unique, in chain order: what the operator could set instead. */
export function missingKeys(skipped: readonly Candidate[]): string[] {
  return [...new Set(skipped.flatMap((c) => defaultKeyEnv(c.type) ?? []))];
}

/** `host:port` of a uri, never its credentials or path; undefined when it does not parse. */
export function hostOf(uri: string): string | undefined {
  try {
    return new URL(uri).host || undefined;
  } catch {
    return undefined;
  }
}

/** The model an agent runs with in this process and why: the first usable candidate of its chain. */
export interface ModelChoice {
  /** The provider entry chosen, e.g. `ollama.local`. */
  ref: string;
  model: string;
  via: { key: string } | { host: string };
  /** The keys of the entries before the one chosen that are not set: the why. */
  notSet: string[];
}

/** Which model an agent uses in this process; null when its chain cannot resolve. */
export function chooseModel(
  ref: string,
  providers: Record<string, ProviderEntry>,
  env: Record<string, string | undefined>,
): ModelChoice | null {
  let all: Candidate[];
  try {
    all = resolveCandidates(ref, providers, env, createSilentLogger());
  } catch {
    return null; // the first turn reports it with the provider-create error
  }
  const { usable, skipped } = selectCandidates(all);
  const first = usable[0];
  if (first === undefined) return null;
  const via =
    first.apiKey !== undefined ? { key: keyName(first) } : { host: hostOf(first.baseUri) ?? first.entry.ref };
  const chosenAt = all.findIndex((c) => !lacksKey(c));
  const before = skipped.filter((c) => all.indexOf(c) < chosenAt);
  return { ref: first.entry.ref, model: first.model, via, notSet: missingKeys(before) };
}

/** The startup line saying which model an agent uses in this process and why; null when it cannot resolve. */
export function modelChoice(
  agentAlias: string,
  ref: string,
  providers: Record<string, ProviderEntry>,
  env: Record<string, string | undefined>,
): string | null {
  const c = chooseModel(ref, providers, env);
  return c && modelChoiceLine(agentAlias, c.ref, c.model, c.via, c.notSet);
}
