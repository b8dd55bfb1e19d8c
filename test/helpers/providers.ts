// Builders for provider config in tests: entries, maps and fake-server uris.
import type { ProviderEntry, ReliabilityConfig } from '../../src/config/types.ts';
import { createLogger, type Logger } from '../../src/core/logger.ts';
import type { FakeModelServer } from '../fakes/model-server.ts';

/** A complete ProviderEntry for `ref` (`<type>.<alias>`) with the loader's defaults, then `over`. */
export function providerEntry(ref: string, over: Partial<ProviderEntry> = {}): ProviderEntry {
  const dot = ref.indexOf('.');
  const type = dot === -1 ? ref : ref.slice(0, dot);
  const alias = dot === -1 ? '' : ref.slice(dot + 1);
  return {
    ref,
    type,
    alias,
    model: `${alias}-model`,
    uri: undefined,
    api_key: undefined,
    requires_openai_auth: false,
    fallback: [],
    fallback_models: [],
    temperature: undefined,
    timeout_secs: undefined,
    max_tokens: undefined,
    native_tools: undefined,
    context_window: undefined,
    extra_headers: {},
    vision: undefined,
    ...over,
  };
}

/** Keys entries by their ref, as `BatonConfig.providers` is. */
export function providerMap(...entries: ProviderEntry[]): Record<string, ProviderEntry> {
  return Object.fromEntries(entries.map((e) => [e.ref, e]));
}

/** The uri an entry of `type` needs to reach the fake (anthropic and ollama add `/v1` themselves). */
export function fakeUri(server: FakeModelServer, type: string): string {
  return type === 'anthropic' || type === 'ollama' ? server.url : server.openaiBaseUrl;
}

/** An entry of `ref` pointed at the fake server. */
export function fakeProviderEntry(
  server: FakeModelServer,
  ref: string,
  over: Partial<ProviderEntry> = {},
): ProviderEntry {
  const entry = providerEntry(ref, over);
  return { ...entry, uri: over.uri ?? fakeUri(server, entry.type) };
}

/** Retries and backoff small enough for tests. */
export function fastReliability(over: Partial<ReliabilityConfig> = {}): ReliabilityConfig {
  return { provider_retries: 1, provider_backoff_ms: 1, scheduler_retries: 0, ...over };
}

/** A real (redacting) baton logger whose JSON lines are kept in `lines`. */
export function capturingLogger(secrets: string[] = []): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'debug',
    secrets,
    destination: { write: (s: string) => void lines.push(s) },
  });
  return { logger, lines };
}
