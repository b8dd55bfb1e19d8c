// pino logger with secret redaction and an async-local run scope merged into every line.
import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

export type RunScope = Record<string, string | number | boolean | null>;

const scopeStorage = new AsyncLocalStorage<RunScope>();

/** Runs `fn` with `scope` added to every log line emitted inside it (replacing the outer run's scope). */
export function withRunScope<T>(scope: RunScope, fn: () => T): T {
  return scopeStorage.run(scope, fn);
}

export function currentRunScope(): RunScope | undefined {
  return scopeStorage.getStore();
}

const REDACT_KEYS =
  /(secret|password|passwd|token|api_key|api-key|apikey|auth|bearer|private_key|credential)/i;
const MIN_SECRET_LEN = 4;

/** Replaces every known secret value in strings, and values of secret-looking keys, with `[redacted]`. */
export function createRedactor(secrets: readonly string[]): (value: unknown) => unknown {
  const needles = [...new Set(secrets.filter((s) => s.length >= MIN_SECRET_LEN))].sort(
    (a, b) => b.length - a.length,
  );
  const scrubString = (s: string): string => {
    let out = s;
    for (const n of needles) if (out.includes(n)) out = out.split(n).join('[redacted]');
    return out;
  };
  const walk = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return scrubString(value);
    if (depth > 6 || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((v) => walk(v, depth + 1));
    if (value instanceof Error) return { type: value.name, message: scrubString(value.message) };
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = REDACT_KEYS.test(k) && typeof v === 'string' ? '[redacted]' : walk(v, depth + 1);
    }
    return out;
  };
  return (value) => walk(value, 0);
}

export interface LoggerOptions {
  level?: string;
  secrets?: readonly string[];
  /** Defaults to stderr, so stdout stays for command output (e.g. `baton agent`). */
  destination?: pino.DestinationStream;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  const redact = createRedactor(opts.secrets ?? []);
  return pino(
    {
      level: opts.level ?? process.env.BATON_LOG_LEVEL ?? 'info',
      base: undefined,
      mixin: () => scopeStorage.getStore() ?? {},
      formatters: { log: (obj) => redact(obj) as Record<string, unknown> },
      hooks: {
        logMethod(args, method) {
          const scrubbed = args.map((a) => redact(a)) as Parameters<typeof method>;
          method.apply(this, scrubbed);
        },
      },
    },
    opts.destination ?? pino.destination({ fd: 2, sync: false }),
  );
}

/** A logger that discards everything (tests that do not inspect logs). */
export function createSilentLogger(): Logger {
  return pino({ level: 'silent' });
}
