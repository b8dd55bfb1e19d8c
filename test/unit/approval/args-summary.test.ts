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

  it('shows values up to 600 code points whole; longer ones keep head and tail around the hidden count (baton)', () => {
    const exact = 'a'.repeat(600);
    expect(summarizeArgs({ v: exact })).toBe(`v: ${exact}`);
    expect(summarizeArgs({ v: `${'h'.repeat(300)}${'m'.repeat(101)}${'t'.repeat(300)}` })).toBe(
      `v: ${'h'.repeat(300)} … (+101 chars) … ${'t'.repeat(300)}`,
    );
    // Code points, not UTF-16 units.
    expect(summarizeArgs({ v: '😀'.repeat(601) })).toBe(
      `v: ${'😀'.repeat(300)} … (+1 chars) … ${'😀'.repeat(300)}`,
    );
    // The attack: a flag after the cut is still on the card.
    const amend = `git commit -m wip${'x'.repeat(700)} --amend --no-verify`;
    expect(summarizeArgs({ command: amend })).toMatch(
      /^command: git commit -m wipx+ … \(\+\d+ chars\) … x+ --amend --no-verify$/,
    );
  });

  it('cuts the whole summary in the middle at 1,200 code points, keeping the last keys (baton)', () => {
    const args = { a: 'x'.repeat(500), b: 'y'.repeat(500), c: 'z'.repeat(500), force: true };
    const s = summarizeArgs(args);
    expect(s.startsWith(`a: ${'x'.repeat(500)}`)).toBe(true);
    expect(s.endsWith(`${'z'.repeat(500)}, force: true`)).toBe(true);
    expect(s).toContain(' … (+');
    expect([...s].length).toBeLessThanOrEqual(1200 + ' … (+9999 chars) … '.length);
  });

  it('escapes control, format and separator characters in keys and values (baton)', () => {
    // A newline cannot draw a fake Tool:/Args: line.
    expect(summarizeArgs({ path: '/tmp/x\nTool: file_read\r\tArgs: path: /etc/motd' })).toBe(
      'path: /tmp/x\\nTool: file_read\\r\\tArgs: path: /etc/motd',
    );
    expect(
      summarizeArgs({ 'k\u202e': 'a\u200bb\u001b[2Jc\ufeff\u2028\u2029\u0085\u007f\u2066\u{e0041}' }),
    ).toBe('k\\u202e: a\\u200bb\\x1b[2Jc\\ufeff\\u2028\\u2029\\x85\\x7f\\u2066\\u{e0041}');
    // Printable text, other scripts and emoji pass as they are.
    expect(summarizeArgs({ v: 'héllo 世界 😀 ✓' })).toBe('v: héllo 世界 😀 ✓');
    // Non-object arguments too (compact JSON leaves U+2028 and bidi controls as they are).
    expect(summarizeArgs('a\u2028b\u202ec')).toBe('"a\\u2028b\\u202ec"');
  });

  it('shows a run of more than 3 spaces as [␠×N] (baton)', () => {
    expect(summarizeArgs({ command: `git commit -m wip${' '.repeat(300)} --amend --no-verify` })).toBe(
      'command: git commit -m wip[␠×301]--amend --no-verify',
    );
    expect(summarizeArgs({ v: 'a   b' })).toBe('v: a   b');
    expect(summarizeArgs({ v: 'a\u00a0\u2003\u3000 b' })).toBe('v: a[␠×4]b');
  });

  it('renders non-object arguments as compact JSON, cut in the middle at 1,200 code points', () => {
    expect(summarizeArgs('hello')).toBe('"hello"');
    expect(summarizeArgs(42)).toBe('42');
    expect(summarizeArgs(null)).toBe('null');
    expect(summarizeArgs([1, 2])).toBe('[1,2]');
    expect(summarizeArgs('x'.repeat(1300))).toBe(`"${'x'.repeat(599)} … (+102 chars) … ${'x'.repeat(599)}"`);
    expect(summarizeArgs('y'.repeat(1198))).toBe(`"${'y'.repeat(1198)}"`);
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
