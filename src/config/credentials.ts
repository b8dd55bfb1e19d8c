// Every credential baton holds, whatever its source, gathered in one place for the secret set (config.md §2).
import { DEFAULT_CREDENTIAL_ENV } from './defaults.ts';
import { ownEntry } from './lookup.ts';
import type { BatonConfig, ProviderEntry } from './types.ts';

type Env = Record<string, string | undefined>;

/** A credential value and the config path it is used at (for the too-short warning; never the value). */
export interface HeldCredential {
  path: string;
  value: string;
}

/**
 * The key a provider entry uses (config.md §6.1): its own non-empty `api_key`, else its type's default
 * environment variable. An OAuth-style alias (`requires_openai_auth`) never borrows the shared key [kept].
 * The provider code and the secret set both call this, so the key sent is always a key redacted.
 */
export function providerCredential(
  entry: Pick<ProviderEntry, 'type' | 'api_key' | 'requires_openai_auth'>,
  env: Env,
): string | undefined {
  if (entry.api_key !== undefined && entry.api_key !== '') return entry.api_key;
  if (entry.requires_openai_auth) return undefined;
  const name = ownEntry(DEFAULT_CREDENTIAL_ENV, entry.type);
  const fromEnv = name === undefined ? undefined : env[name];
  return fromEnv === '' ? undefined : fromEnv;
}

/**
 * Header names whose values are public by design (attribution, content negotiation, API versions). Every
 * other `extra_headers` value is treated as a credential: an allowlist, so an unknown header fails safe.
 */
const PUBLIC_HEADERS = new Set([
  'accept',
  'accept-language',
  'anthropic-beta',
  'anthropic-version',
  'content-type',
  'http-referer',
  'referer',
  'user-agent',
  'x-title',
]);

/** Whether the entry sends a credential through `extra_headers` (any header not public by design). */
export function hasCredentialHeader(entry: Pick<ProviderEntry, 'extra_headers'>): boolean {
  return Object.keys(entry.extra_headers).some((name) => !PUBLIC_HEADERS.has(name.toLowerCase()));
}

/** The password of a `scheme://user:password@host` URL, as written and percent-decoded. */
function urlPasswords(url: string | undefined): string[] {
  if (url === undefined) return [];
  try {
    const raw = new URL(url).password;
    if (raw === '') return [];
    let decoded = raw;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      // a malformed escape: the raw form is what is held
    }
    return decoded === raw ? [raw] : [raw, decoded];
  } catch {
    return [];
  }
}

/** Every credential value of a loaded config, with the env its default provider keys come from. */
export function heldCredentials(config: BatonConfig, env: Env): HeldCredential[] {
  const found: HeldCredential[] = [];
  const add = (path: string, value: string | undefined): void => {
    if (value !== undefined && value !== '') found.push({ path, value });
  };
  add('gateway.api_token', config.gateway.api_token);
  for (const pw of urlPasswords(config.redis.url)) add('redis.url', pw);
  for (const [i, node] of (config.redis.cluster_nodes ?? []).entries()) {
    for (const pw of urlPasswords(node)) add(`redis.cluster_nodes[${i}]`, pw);
  }
  for (const p of Object.values(config.providers)) {
    const at = `providers.models.${p.ref}`;
    add(`${at}.api_key`, providerCredential(p, env));
    for (const pw of urlPasswords(p.uri)) add(`${at}.uri`, pw);
    for (const [name, value] of Object.entries(p.extra_headers)) {
      if (!PUBLIC_HEADERS.has(name.toLowerCase())) add(`${at}.extra_headers.${name}`, value);
    }
  }
  for (const c of Object.values(config.channels)) {
    const at = `channels.${c.key}`;
    add(`${at}.bot_token`, c.bot_token);
    if (c.type === 'slack') {
      add(`${at}.app_token`, c.app_token);
      add(`${at}.signing_secret`, c.signing_secret);
    }
    if (c.type === 'telegram') add(`${at}.webhook_secret`, c.webhook_secret);
  }
  return found;
}

/** The secret set: interpolated `${ENV}` values plus every held credential, unique. */
export function secretSet(config: BatonConfig, env: Env, interpolated: readonly string[]): string[] {
  const values = [...interpolated, ...heldCredentials(config, env).map((c) => c.value)];
  return [...new Set(values.filter((v) => v !== ''))];
}
