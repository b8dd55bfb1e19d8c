// Human-readable log lines for a terminal: pino writes its JSON line, this turns it into
// `12:04:05.123 WARN  message  key=value …` before it reaches stderr. JSON stays the format when stderr is not a
// TTY (a file, a pipe, a log collector), so nothing that parses baton's logs changes.
import type { DestinationStream } from 'pino';

export type LogFormat = 'json' | 'pretty';

/** `BATON_LOG_FORMAT=json|pretty` decides; else pretty on a terminal, JSON everywhere else. */
export function logFormatFor(env: Record<string, string | undefined>, stderrIsTTY: boolean): LogFormat {
  const forced = env.BATON_LOG_FORMAT?.trim().toLowerCase();
  if (forced === 'json' || forced === 'pretty') return forced;
  return stderrIsTTY ? 'pretty' : 'json';
}

/** Colour only on a terminal and unless `NO_COLOR` is set (https://no-color.org). */
export function logColorFor(env: Record<string, string | undefined>, stderrIsTTY: boolean): boolean {
  return stderrIsTTY && !env.NO_COLOR;
}

const LEVELS: Record<number, { label: string; color: string }> = {
  10: { label: 'TRACE', color: '90' },
  20: { label: 'DEBUG', color: '36' },
  30: { label: 'INFO ', color: '32' },
  40: { label: 'WARN ', color: '33' },
  50: { label: 'ERROR', color: '31' },
  60: { label: 'FATAL', color: '35' },
};

const paint = (on: boolean, code: string, text: string) => (on ? `\u001b[${code}m${text}\u001b[39m` : text);

/** A value as `key=value` shows it: bare when it is a plain word, else as JSON (quoted, escaped). */
function valueText(v: unknown): string {
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  return JSON.stringify(v) ?? String(v);
}

function clock(time: unknown): string {
  const d = typeof time === 'number' ? new Date(time) : new Date();
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** One pino JSON line as one readable line (with its newline); a line that is not JSON passes unchanged. */
export function formatLogLine(line: string, color: boolean): string {
  let rec: unknown;
  try {
    rec = JSON.parse(line);
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  if (typeof rec !== 'object' || rec === null || Array.isArray(rec)) return `${line.trimEnd()}\n`;
  const { level, time, msg, err, ...rest } = rec as Record<string, unknown>;
  const lv = LEVELS[typeof level === 'number' ? level : 30] ?? { label: String(level), color: '0' };
  const fields = Object.entries(rest).map(([k, v]) => `${paint(color, '90', `${k}=`)}${valueText(v)}`);
  let out = `${paint(color, '90', clock(time))} ${paint(color, lv.color, lv.label)} ${
    typeof msg === 'string' ? msg : ''
  }`;
  if (fields.length) out += `  ${fields.join(' ')}`;
  // An error's stack goes on the lines below, indented, as a terminal reader expects it.
  if (err !== undefined) {
    const stack = typeof err === 'object' && err !== null ? (err as { stack?: unknown }).stack : undefined;
    out +=
      typeof stack === 'string'
        ? `  ${paint(color, '90', 'err=')}\n    ${stack.split('\n').join('\n    ')}`
        : `  ${paint(color, '90', 'err=')}${valueText(err)}`;
  }
  return `${out}\n`;
}

/** A pino destination that writes each line readably to `out` (stderr). */
export function createPrettyDestination(
  out: { write(chunk: string): unknown },
  color: boolean,
): DestinationStream & { flush(): void } {
  return {
    write(line: string) {
      out.write(formatLogLine(line, color));
    },
    flush() {},
  };
}
