// Token replies (approvals.md §12.5).
import { describe, expect, it } from 'vitest';
import { parseTokenReply } from '../../../src/approval/text-reply.ts';

describe('parseTokenReply', () => {
  it.each([
    ['abc123 yes', 'approve'],
    ['abc123 y', 'approve'],
    ['abc123 approve', 'approve'],
    ['abc123 no', 'deny'],
    ['abc123 n', 'deny'],
    ['abc123 deny', 'deny'],
    ['abc123 always', 'always'],
    ['ABC123 YES', 'approve'],
    ['aBc123 Always', 'always'],
    ['abc123 No', 'deny'],
    ['abc123 yes please do it', 'approve'],
    ['  abc123   deny  ', 'deny'],
    ['abc123\nyes', 'approve'],
  ])('%j → %s', (text, action) => {
    expect(parseTokenReply(text)).toEqual({ token: 'abc123', action });
  });

  it.each([
    'yes',
    'abc123',
    'abc 123 yes',
    'toolname yes',
    'abc123 maybe',
    '',
    'abc123 ',
    'abc12 yes',
    'abc1234 yes',
    'abc-12 yes',
    'abc123 yes!',
    'abc123 ye',
    'abc123 allow',
    'yes abc123',
    'äbc123 yes',
  ])('%j is an ordinary message', (text) => {
    expect(parseTokenReply(text)).toBeNull();
  });
});
