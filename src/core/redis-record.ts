// Reading records back from Redis: every record is checked against its schema, and a bad one is skipped with a
// log line instead of thrown. One damaged (or other-version) record must never stop a loop or a conversation.
import type { ZodType } from 'zod';
import type { Logger } from './logger.ts';

export interface RecordContext {
  logger: Pick<Logger, 'warn'>;
  /** The Redis key (and field or index) the record came from, for the log line. */
  key: string;
  /** What the record is, e.g. "history entry" (the log message is "unreadable <what> skipped"). */
  what?: string;
}

/** How much of a bad record the log line shows: enough to recognise it, never a whole payload. */
const SAMPLE_CHARS = 200;

/**
 * The stored JSON text parsed and validated, or undefined (logged) when it is not JSON or does not match.
 * `null` (a missing key) is not a bad record: it gives undefined without a log line.
 */
export function parseRecord<T>(
  schema: ZodType<T>,
  raw: string | null | undefined,
  ctx: RecordContext,
): T | undefined {
  if (raw === null || raw === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    return reject(ctx, raw, err instanceof Error ? err.message : String(err));
  }
  return checkRecord(schema, value, ctx, raw);
}

/** An already decoded value (a hash decoded field by field, a Lua reply) validated the same way. */
export function checkRecord<T>(
  schema: ZodType<T>,
  value: unknown,
  ctx: RecordContext,
  raw: string = safeSample(value),
): T | undefined {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return reject(ctx, raw, `${where}${issue?.message ?? 'invalid'}`);
}

function reject(ctx: RecordContext, raw: string, reason: string): undefined {
  ctx.logger.warn(
    { key: ctx.key, reason, sample: raw.slice(0, SAMPLE_CHARS) },
    `unreadable ${ctx.what ?? 'record'} skipped`,
  );
  return undefined;
}

function safeSample(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
