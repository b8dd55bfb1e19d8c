// approvals.md §4: every summary rule, with the spec's example verbatim.
import { describe, expect, it } from 'vitest';
import { isSecretKey, promptSummary, summarizeArgs } from '../../../src/approval/args-summary.ts';

describe('argument summary (approvals.md §4)', () => {
  it('renders the spec example verbatim', () => {
    expect(summarizeArgs({ command: 'ls -la', cwd: '/tmp' })).toBe('command: ls -la, cwd: /tmp');
  });

  it('puts path first, then the other keys in their original order', () => {
    expect(summarizeArgs({ b: '1', path: '/etc/hosts', a: '2' })).toBe('path: /etc/hosts, b: 1, a: 2');
    expect(summarizeArgs({ z: 'x', y: 'w' })).toBe('z: x, y: w');
  });

  it('uses strings as they are and other values as compact JSON', () => {
    expect(summarizeArgs({ s: 'a "q" b', n: 3, t: true, nil: null, arr: [1, 'x'], obj: { k: 1 } })).toBe(
      's: a "q" b, n: 3, t: true, nil: null, arr: [1,"x"], obj: {"k":1}',
    );
  });

  it('cuts each value to 80 code points with … appended only when cut', () => {
    const exact = 'a'.repeat(80);
    expect(summarizeArgs({ v: exact })).toBe(`v: ${exact}`);
    expect(summarizeArgs({ v: `${exact}b` })).toBe(`v: ${exact}…`);
    // Code points, not UTF-16 units: 81 emoji are cut to 80 whole emoji.
    expect(summarizeArgs({ v: '😀'.repeat(81) })).toBe(`v: ${'😀'.repeat(80)}…`);
    expect(summarizeArgs({ v: Array.from({ length: 50 }, () => 1) })).toBe(
      `v: ${JSON.stringify(Array.from({ length: 50 }, () => 1)).slice(0, 80)}…`,
    );
  });

  it('renders non-object arguments as compact JSON cut to 120 characters', () => {
    expect(summarizeArgs('hello')).toBe('"hello"');
    expect(summarizeArgs(42)).toBe('42');
    expect(summarizeArgs(null)).toBe('null');
    expect(summarizeArgs([1, 2])).toBe('[1,2]');
    const long = 'x'.repeat(200);
    expect(summarizeArgs(long)).toBe(`"${'x'.repeat(119)}…`);
    expect(summarizeArgs('y'.repeat(118))).toBe(`"${'y'.repeat(118)}"`);
  });

  it('redacts values of every listed key, case-insensitively and anywhere in the key', () => {
    const words = [
      'secret',
      'password',
      'passwd',
      'token',
      'api_key',
      'api-key',
      'apikey',
      'auth',
      'bearer',
      'private_key',
      'private-key',
      'privatekey',
      'credential',
    ];
    for (const w of words) {
      for (const key of [w, w.toUpperCase(), `my_${w}_x`, `X${w[0]!.toUpperCase()}${w.slice(1)}`]) {
        expect(isSecretKey(key), key).toBe(true);
        expect(summarizeArgs({ [key]: 'hunter2', n: { deep: 1 } })).toBe(`${key}: [redacted], n: {"deep":1}`);
      }
    }
    expect(summarizeArgs({ Authorization: 'Bearer abc' })).toBe('Authorization: [redacted]');
    expect(summarizeArgs({ token_count: 5 })).toBe('token_count: [redacted]');
    expect(isSecretKey('command')).toBe(false);
    expect(isSecretKey('private key')).toBe(false);
  });

  it('also redacts secret keys inside nested values (baton)', () => {
    expect(summarizeArgs({ headers: { Authorization: 'Bearer abc', accept: 'x' } })).toBe(
      'headers: {"Authorization":"[redacted]","accept":"x"}',
    );
    expect(summarizeArgs([{ password: 'p' }])).toBe('[{"password":"[redacted]"}]');
  });

  it('gives an empty summary for no arguments, shown as (none) in prompts', () => {
    expect(summarizeArgs({})).toBe('');
    expect(summarizeArgs(undefined)).toBe('');
    expect(promptSummary('')).toBe('(none)');
    expect(promptSummary('a: b')).toBe('a: b');
  });
});
