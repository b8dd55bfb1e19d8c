// The MONITOR line parser of the tests' own monitor (test/helpers/redis-monitor.ts).
import { describe, expect, it } from 'vitest';
import { parseMonitorLine } from '../../helpers/redis-monitor.ts';

describe('parseMonitorLine', () => {
  it('reads the client and the arguments, unescaping what Redis escaped', () => {
    expect(
      parseMonitorLine(
        '1796444505.023927 [0 127.0.0.1:50082] "evalsha" "a b" "say \\"hi\\"\\r\\n" "\\x00\\\\"',
      ),
    ).toEqual({ source: '127.0.0.1:50082', args: ['evalsha', 'a b', 'say "hi"\r\n', '\x00\\'] });
    expect(parseMonitorLine('1796444505.024026 [0 lua] "EXISTS" "{p:0}:k"')).toEqual({
      source: 'lua',
      args: ['EXISTS', '{p:0}:k'],
    });
  });

  it('gives null for a line that is not a command', () => {
    expect(parseMonitorLine('OK')).toBeNull();
  });
});
