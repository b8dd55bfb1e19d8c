// pino logger with secret redaction and an async-local run scope merged into every line.
import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type Logger } from 'pino';
import { createPrettyDestination, type LogFormat, logColorFor, logFormatFor } from './log-pretty.ts';
import { createDeepRedactor } from './redact.ts';

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

/**
 * Replaces every known secret value in strings at any depth (objects, arrays, Errors and their stacks),
 * and string values of secret-looking keys, with `[redacted]`.
 */
export function createRedactor(secrets: readonly string[]): (value: unknown) => unknown {
  return createDeepRedactor(secrets, { secretKeys: REDACT_KEYS });
}

export interface LoggerOptions {
  level?: string;
  secrets?: readonly string[];
  /** Defaults to stderr, so stdout stays for command output (e.g. `baton agent`). */
  destination?: pino.DestinationStream;
  /**
   * How lines reach stderr when no destination is given: JSON, or readable lines on a terminal. Defaults to
   * `BATON_LOG_FORMAT`, else `pretty` when stderr is a TTY and `json` otherwise (log-pretty.ts).
   */
  format?: LogFormat;
}

/** stderr: JSON lines (asynchronous writes), or readable ones on a terminal. */
function stderrDestination(format: LogFormat): pino.DestinationStream {
  if (format === 'json') return pino.destination({ fd: 2, sync: false });
  // Synchronous on a terminal, so log lines and the human lines on stdout keep their order.
  const out = pino.destination({ fd: 2, sync: true });
  return createPrettyDestination(out, logColorFor(process.env, process.stderr.isTTY === true));
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
    opts.destination ??
      stderrDestination(opts.format ?? logFormatFor(process.env, process.stderr.isTTY === true)),
  );
}

/** A logger that discards everything (tests that do not inspect logs). */
export function createSilentLogger(): Logger {
  return pino({ level: 'silent' });
}
