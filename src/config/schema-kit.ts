// zod building blocks whose issues carry the exact reasons of spec/config.md §3 (type, negative, enum).
import { z } from 'zod';
import {
  atLeast,
  between,
  enumReason,
  NOT_NEGATIVE,
  NOT_POSITIVE,
  REQUIRED,
  typeReason,
} from './config-messages.ts';
import { isTable, kindOf } from './toml-path.ts';

/** Error callback for a schema's own type check: a missing key reads `required`, anything else names both kinds. */
export const typeError =
  (expected: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? REQUIRED : typeReason(expected, kindOf(issue.input));

export const str = () => z.string({ error: typeError('string') });
export const bool = () => z.boolean({ error: typeError('boolean') });

/** TOML integers arrive as bigint (see toml-path.ts), so a float is rejected here by type. */
const bigint = () => z.bigint({ error: typeError('integer') });
const toNumber = (v: bigint): number => Number(v);

export const int = () => bigint().transform(toNumber);
export const nonNegInt = () => bigint().min(0n, { error: NOT_NEGATIVE }).transform(toNumber);
export const intAtLeast = (min: number, reason = atLeast(min)) =>
  bigint().min(BigInt(min), { error: reason }).transform(toNumber);
export const intBetween = (min: number, max: number) =>
  bigint()
    .min(BigInt(min), { error: between(min, max) })
    .max(BigInt(max), { error: between(min, max) })
    .transform(toNumber);

/** A key typed *number* accepts integers and floats. */
export const num = () =>
  z
    .custom<number | bigint>((v) => typeof v === 'number' || typeof v === 'bigint', {
      error: typeError('number'),
    })
    .transform((v) => Number(v));

/** A number (integer or float) greater than 0. */
export const positiveNum = () => num().refine((v) => v > 0, { error: NOT_POSITIVE });

export const enumOf = <const T extends readonly [string, ...string[]]>(options: T) =>
  z.enum(options, {
    error: (issue) =>
      typeof issue.input === 'string' ? enumReason(options, issue.input) : typeError('string')(issue),
  });

export const arrayOf = <T extends z.ZodType>(item: T) => z.array(item, { error: typeError('array') });
export const strArray = () => arrayOf(str());

/** Any value: keys the spec accepts for compatibility and ignores. */
export const accepted = () => z.unknown().optional();

const tableGuard = () => z.custom<Record<string, unknown>>(isTable, { error: typeError('table') });

/**
 * A TOML table with a fixed set of keys. Unknown keys raise zod's `unrecognized_keys`, which the loader turns
 * into warnings. The guard first rejects arrays and datetimes, which a bare zod object would accept.
 */
export const table = <S extends z.ZodRawShape>(shape: S) => tableGuard().pipe(z.strictObject(shape));

/** A table whose keys are free (aliases, names, header names). */
export const tableOf = <T extends z.ZodType>(value: T) => tableGuard().pipe(z.record(z.string(), value));

/** A table with some typed keys whose other keys are accepted silently (`thinking`, `tool_receipts`). */
export const openTable = <S extends z.ZodRawShape>(shape: S) => tableGuard().pipe(z.looseObject(shape));

type IssueSink = { addIssue: (issue: z.core.$ZodRawIssue) => void };

/** Parse `value` with `schema` inside a transform, re-raising its issues under the current path (+ `at`). */
export function reissue<T extends z.ZodType>(
  schema: T,
  value: unknown,
  ctx: IssueSink,
  at: PropertyKey[] = [],
): { ok: true; data: z.output<T> } | { ok: false } {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, data: result.data };
  for (const issue of result.error.issues) {
    const path = [...at, ...issue.path];
    // Unknown keys stay unknown keys (warnings); everything else keeps its message as a custom issue.
    if (issue.code === 'unrecognized_keys') {
      ctx.addIssue({ code: 'unrecognized_keys', keys: issue.keys, path, message: issue.message, input: {} });
    } else {
      ctx.addIssue({ code: 'custom', path, message: issue.message, input: value });
    }
  }
  return { ok: false };
}

/** A string or an array of strings, normalised to an array (`allowed_path` may be either in ZeroClaw files). */
export const strOrStrArray = () =>
  z.unknown().transform((value, ctx): string[] => {
    if (typeof value === 'string') return [value];
    if (!Array.isArray(value)) {
      ctx.addIssue({ code: 'custom', message: typeError('string or array')({ input: value }) });
      return z.NEVER;
    }
    const list = reissue(strArray(), value, ctx);
    return list.ok ? list.data : z.NEVER;
  });
