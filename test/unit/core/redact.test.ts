// Tests: the shared redactor (core/redact.ts) and the logger's use of it, at any depth and through cycles.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.ts';
import {
  createDeepRedactor,
  createTextRedactor,
  MIN_REDACT_LENGTH,
  REDACTED,
} from '../../../src/core/redact.ts';

const SECRET = 'canary-secret-0001';

describe('text redactor', () => {
  it('replaces every occurrence, longest secret first, in one pass', () => {
    const r = createTextRedactor(['abcdef', 'abcdef-longer']);
    expect(r('x abcdef-longer y abcdef z abcdefabcdef')).toBe(
      `x ${REDACTED} y ${REDACTED} z ${REDACTED}${REDACTED}`,
    );
  });

  it('treats secrets as literals (regex characters) and matches their JSON-escaped form', () => {
    const tricky = 'a.b*c"d\\e$1';
    const r = createTextRedactor([tricky]);
    expect(r(`plain ${tricky} json ${JSON.stringify({ k: tricky })}`)).toBe(
      `plain ${REDACTED} json {"k":"${REDACTED}"}`,
    );
    expect(r('aXbbc"d\\e$1')).toBe('aXbbc"d\\e$1');
  });

  it(`leaves values shorter than ${MIN_REDACT_LENGTH} characters alone (they would redact innocent text)`, () => {
    const r = createTextRedactor(['abc', '']);
    expect(r('abc abc')).toBe('abc abc');
  });
});

describe('deep redactor', () => {
  const redact = createDeepRedactor([SECRET]);

  it('redacts at any depth, in arrays, Maps, Sets and Errors (message, stack, cause), without mutating', () => {
    let deep: Record<string, unknown> = { leaf: `x ${SECRET}` };
    for (let i = 0; i < 50; i++) deep = { nested: deep, list: [SECRET] };
    const err = new Error(`boom ${SECRET}`, { cause: new Error(SECRET) });
    const input = { deep, err, map: new Map([['k', SECRET]]), set: new Set([SECRET]) };
    const out = JSON.stringify(redact(input));
    expect(out).not.toContain(SECRET);
    expect(out).toContain(REDACTED);
    expect(JSON.stringify(deep)).toContain(SECRET);
    expect(err.message).toContain(SECRET);
  });

  it('survives cycles and still redacts shared objects', () => {
    const a: Record<string, unknown> = { s: SECRET };
    a.self = a;
    const shared = { s: SECRET };
    const out = redact({ a, one: shared, two: shared }) as Record<string, Record<string, unknown>>;
    expect(out.a?.self).toBe('[circular]');
    expect(JSON.stringify(out)).not.toContain(SECRET);
    expect(out.two?.s).toBe(REDACTED);
  });
});

describe('logger', () => {
  it('writes no secret from a deep object, an Error or the message text', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger({ level: 'info', secrets: [SECRET], destination });
    let deep: Record<string, unknown> = { value: SECRET };
    for (let i = 0; i < 20; i++) deep = { deeper: deep };
    logger.info({ deep, err: new Error(`provider said ${SECRET}`) }, `message ${SECRET}`);
    logger.warn(new Error(`thrown ${SECRET}`));
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).not.toContain(SECRET);
    expect(lines.join('')).toContain(REDACTED);
  });
});
