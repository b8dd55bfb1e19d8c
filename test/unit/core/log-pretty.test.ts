// The terminal log format: which format a process picks, and how one pino line reads (issue 21 #14).
import { describe, expect, it } from 'vitest';
import { formatLogLine, logColorFor, logFormatFor } from '../../../src/core/log-pretty.ts';
import { createLogger } from '../../../src/core/logger.ts';

const at = new Date(2026, 0, 2, 3, 4, 5, 67).getTime();

describe('log format', () => {
  it('is pretty on a terminal, JSON elsewhere, and BATON_LOG_FORMAT overrides both', () => {
    expect(logFormatFor({}, true)).toBe('pretty');
    expect(logFormatFor({}, false)).toBe('json');
    expect(logFormatFor({ BATON_LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(logFormatFor({ BATON_LOG_FORMAT: 'pretty' }, false)).toBe('pretty');
    expect(logFormatFor({ BATON_LOG_FORMAT: 'yaml' }, false)).toBe('json');
    expect(logColorFor({}, true)).toBe(true);
    expect(logColorFor({ NO_COLOR: '1' }, true)).toBe(false);
    expect(logColorFor({}, false)).toBe(false);
  });

  it('reads as time, level, message and key=value fields', () => {
    const line = JSON.stringify({
      level: 40,
      time: at,
      msg: 'turn failed',
      conversation: 'web.main:abc',
      err: 'connect ECONNREFUSED 127.0.0.1:11434',
      attempts: 2,
    });
    expect(formatLogLine(line, false)).toBe(
      '03:04:05.067 WARN  turn failed  conversation=web.main:abc attempts=2  err="connect ECONNREFUSED 127.0.0.1:11434"\n',
    );
    expect(formatLogLine(line, true)).toContain('\u001b[33mWARN \u001b[39m');
  });

  it('puts an error stack on indented lines and passes a non-JSON line through', () => {
    const line = JSON.stringify({
      level: 50,
      time: at,
      msg: 'boom',
      err: { stack: 'Error: x\n    at f (a.ts:1)' },
    });
    expect(formatLogLine(line, false)).toBe(
      '03:04:05.067 ERROR boom  err=\n    Error: x\n        at f (a.ts:1)\n',
    );
    expect(formatLogLine('plain text', false)).toBe('plain text\n');
  });

  it('keeps redaction: a secret never reaches the readable line either', () => {
    const out: string[] = [];
    const logger = createLogger({
      level: 'info',
      secrets: ['sk-very-secret-value'],
      destination: { write: (l: string) => out.push(formatLogLine(l, false)) },
    });
    logger.warn({ url: 'https://x/?k=sk-very-secret-value' }, 'failed with sk-very-secret-value');
    expect(out.join('')).not.toContain('sk-very-secret-value');
    expect(out.join('')).toContain('WARN  failed with [redacted]');
  });
});
