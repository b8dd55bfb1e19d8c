// The loading pipeline of spec/config.md §1: parse, interpolate, shape, defaults, cross-refs, resilient drop.
import { readFile } from 'node:fs/promises';
import { parse, TomlError } from 'smol-toml';
import type { z } from 'zod';
import { MIN_REDACT_LENGTH, REDACTED, tooShortToRedact } from '../core/redact.ts';
import {
  cannotReadFile,
  credentialTooShort,
  invalid,
  SCHEMA_VERSION_MISSING,
  typeReason,
  unknownKey,
  unsupportedSchemaVersion,
  warningText,
} from './config-messages.ts';
import { heldCredentials, secretSet } from './credentials.ts';
import { checkCrossRefs, checkTranscription } from './cross-refs.ts';
import { checkIds } from './ids.ts';
import { interpolate } from './interpolate.ts';
import { normalise } from './normalise.ts';
import { checkRedisRules } from './redis-rules.ts';
import { checkRules } from './rules.ts';
import {
  FATAL_SECTIONS,
  SECTION_NAMES,
  type SectionData,
  type SectionName,
  sectionSchemas,
  TOP_LEVEL_KEYS,
} from './sections.ts';
import { semanticWarnings } from './semantic-warnings.ts';
import { checkShape } from './shape-check.ts';
import { formatPath, isTable, kindOf, sectionOf } from './toml-path.ts';
import type { BatonConfig, Diagnostic } from './types.ts';

export interface LoadResult {
  /** Null only when `fatal`. */
  config: BatonConfig | null;
  diagnostics: Diagnostic[];
  fatal: boolean;
  /** Sections treated as absent because they (or what they reference) have errors, in canonical order. */
  droppedSections: string[];
}

export interface LoadOptions {
  /** Relative `data_dir` and workspace paths resolve against it; default: the current directory. */
  baseDir?: string;
}

type Env = Record<string, string | undefined>;

/** `--config`, else `BATON_CONFIG`, else `./baton.toml`. */
export function resolveConfigPath(cliPath?: string, env: Env = process.env): string {
  if (cliPath !== undefined && cliPath !== '') return cliPath;
  const fromEnv = env.BATON_CONFIG;
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : './baton.toml';
}

export async function loadConfigFile(path: string, env: Env = process.env): Promise<LoadResult> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    const message = cannotReadFile(path, reason);
    return {
      config: null,
      diagnostics: [{ severity: 'error', path: '', message }],
      fatal: true,
      droppedSections: [],
    };
  }
  return loadConfigText(text, env);
}

export function loadConfigText(text: string, env: Env, opts: LoadOptions = {}): LoadResult {
  let document: Record<string, unknown>;
  try {
    // Integers as bigint: the only way to tell `1` from `1.0`, which the spec requires (§3).
    document = parse(text, { integersAsBigInt: true });
  } catch (err) {
    // The parser's own message, with its code block pointing at the line.
    const message = (err instanceof TomlError || err instanceof Error ? err.message : String(err)).trimEnd();
    return {
      config: null,
      diagnostics: [{ severity: 'error', path: '', message }],
      fatal: true,
      droppedSections: [],
    };
  }

  const interpolation = interpolate(document, env);
  const doc = isTable(interpolation.value) ? interpolation.value : {};
  let diagnostics: Diagnostic[] = [...checkSchemaVersion(doc), ...interpolation.diagnostics];

  for (const key of Object.keys(doc)) {
    if (!TOP_LEVEL_KEYS.has(key)) {
      const path = formatPath([key]);
      diagnostics.push({ severity: 'warning', path, message: unknownKey(path) });
    }
  }

  const shaped = shapeSections(doc, diagnostics);
  diagnostics.push(...checkRules(doc), ...checkRedisRules(doc), ...checkIds(doc));
  diagnostics = prune(diagnostics, interpolation.diagnostics);

  const broken = new Set(diagnostics.filter((d) => d.severity === 'error').map((d) => sectionOf(d.path)));
  const fatal = [...broken].some((s) => FATAL_SECTIONS.has(s));
  let config: BatonConfig | null = null;

  if (!fatal) {
    const sections = withoutBroken(shaped, broken);
    config = normalise({
      sections,
      baseDir: opts.baseDir ?? process.cwd(),
    });
    config.secrets = secretSet(config, env, interpolation.secrets);
    diagnostics.push(...shortCredentialWarnings(config, env));
    const crossRefErrors = checkCrossRefs(config);
    diagnostics.push(...crossRefErrors);
    if (crossRefErrors.length > 0) {
      // §16 errors all sit under `agents`; dropping it fails closed (no turn is dispatched).
      broken.add('agents');
      config.agents = {};
    }
    const transcriptionErrors = checkTranscription(config);
    diagnostics.push(...transcriptionErrors);
    if (transcriptionErrors.length > 0) {
      // Voice notes are then stored, not transcribed; nothing else depends on the section.
      broken.add('transcription');
      config.transcription = { provider: undefined, model: config.transcription.model };
    }
    diagnostics.push(...semanticWarnings(config));
  }

  return {
    config,
    // Only interpolated values: a literal written in the file is already in plain sight of its reader.
    diagnostics: redact(diagnostics, interpolation.secrets),
    fatal,
    droppedSections: fatal ? [] : SECTION_NAMES.filter((s) => broken.has(s)),
  };
}

/** A credential too short to redact from free text (core/redact.ts) is named by path, never by value. */
function shortCredentialWarnings(config: BatonConfig, env: Env): Diagnostic[] {
  return heldCredentials(config, env)
    .filter((c) => tooShortToRedact(c.value))
    .map((c) => ({
      severity: 'warning',
      path: c.path,
      message: credentialTooShort(c.path, MIN_REDACT_LENGTH),
    }));
}

function checkSchemaVersion(doc: Record<string, unknown>): Diagnostic[] {
  const value = doc.schema_version;
  const path = 'schema_version';
  if (value === undefined)
    return [{ severity: 'warning', path, message: warningText(path, SCHEMA_VERSION_MISSING) }];
  if (typeof value !== 'bigint') {
    return [{ severity: 'error', path, message: invalid(path, typeReason('integer', kindOf(value))) }];
  }
  if (value !== 3n) {
    return [{ severity: 'error', path, message: invalid(path, unsupportedSchemaVersion(String(value))) }];
  }
  return [];
}

type Shaped = { [K in SectionName]: SectionData[K] | undefined };

function shapeSections(doc: Record<string, unknown>, diagnostics: Diagnostic[]): Shaped {
  const run = <T extends z.ZodType>(name: SectionName, schema: T): z.output<T> | undefined => {
    const result = checkShape(name, schema, doc[name]);
    diagnostics.push(...result.diagnostics);
    return result.data;
  };
  const s = sectionSchemas;
  // Listed in SECTION_NAMES order so diagnostics come out section by section.
  return {
    redis: run('redis', s.redis),
    gateway: run('gateway', s.gateway),
    worker: run('worker', s.worker),
    providers: run('providers', s.providers),
    reliability: run('reliability', s.reliability),
    delegate: run('delegate', s.delegate),
    cost: run('cost', s.cost),
    risk_profiles: run('risk_profiles', s.risk_profiles),
    runtime_profiles: run('runtime_profiles', s.runtime_profiles),
    agents: run('agents', s.agents),
    channels: run('channels', s.channels),
    peer_groups: run('peer_groups', s.peer_groups),
    cron: run('cron', s.cron),
    transcription: run('transcription', s.transcription),
  };
}

/** A dropped section is treated as absent, which for every section means its defaults (or empty). */
function withoutBroken(shaped: Shaped, broken: ReadonlySet<string>): SectionData {
  const pick = <T extends z.ZodType>(
    name: SectionName,
    schema: T,
    data: z.output<T> | undefined,
  ): z.output<T> => (broken.has(name) ? undefined : data) ?? schema.parse({});
  const s = sectionSchemas;
  return {
    redis: pick('redis', s.redis, shaped.redis),
    gateway: pick('gateway', s.gateway, shaped.gateway),
    worker: pick('worker', s.worker, shaped.worker),
    providers: pick('providers', s.providers, shaped.providers),
    reliability: pick('reliability', s.reliability, shaped.reliability),
    delegate: pick('delegate', s.delegate, shaped.delegate),
    cost: pick('cost', s.cost, shaped.cost),
    risk_profiles: pick('risk_profiles', s.risk_profiles, shaped.risk_profiles),
    runtime_profiles: pick('runtime_profiles', s.runtime_profiles, shaped.runtime_profiles),
    agents: pick('agents', s.agents, shaped.agents),
    channels: pick('channels', s.channels, shaped.channels),
    peer_groups: pick('peer_groups', s.peer_groups, shaped.peer_groups),
    cron: pick('cron', s.cron, shaped.cron),
    transcription: pick('transcription', s.transcription, shaped.transcription),
  };
}

/**
 * Two kinds of noise removed before sections are judged:
 * - an unknown key is ignored, so an unset variable inside it is not an error (a ZeroClaw file may still
 *   reference its own secrets under, say, `[memory]`);
 * - a value whose variable is unset is reported once, not again by the shape check of its `${NAME}` text.
 */
function prune(diagnostics: Diagnostic[], interpolationErrors: readonly Diagnostic[]): Diagnostic[] {
  const ignored = diagnostics.filter((d) => d.message === unknownKey(d.path)).map((d) => d.path);
  const under = (path: string): boolean =>
    ignored.some((root) => path === root || path.startsWith(`${root}.`) || path.startsWith(`${root}[`));
  const unset = new Set(interpolationErrors.map((d) => d.path));
  const fromInterpolation = new Set(interpolationErrors);
  return diagnostics.filter((d) => {
    if (d.severity === 'warning') return true;
    if (under(d.path)) return false;
    return fromInterpolation.has(d) || !unset.has(d.path);
  });
}

/** Interpolated values are secrets and never appear in a diagnostic (§2), whatever text embeds them. */
function redact(diagnostics: Diagnostic[], secrets: readonly string[]): Diagnostic[] {
  const ordered = [...secrets].filter((s) => s !== '').sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return diagnostics;
  const scrub = (text: string): string => ordered.reduce((t, s) => t.split(s).join(REDACTED), text);
  return diagnostics.map((d) => ({ ...d, message: scrub(d.message) }));
}
