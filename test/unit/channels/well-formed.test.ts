// Inbound strings made well-formed (security review #8): every string of an event, nested ones included.
import { describe, expect, it } from 'vitest';
import { wellFormed } from '../../../src/channel-host/well-formed.ts';

describe('wellFormed', () => {
  it('replaces lone surrogates in every string of an event, and leaves the rest as it was', () => {
    const event = {
      kind: 'message',
      text: 'a\ud800b',
      thread: '\udfff',
      sender: { id: 'u', username: 'x\ud83d' },
      isDirect: true,
      tags: ['ok 😀', '\ud800'],
    };
    expect(wellFormed(event)).toEqual({
      kind: 'message',
      text: 'a\ufffdb',
      thread: '\ufffd',
      sender: { id: 'u', username: 'x\ufffd' },
      isDirect: true,
      tags: ['ok 😀', '\ufffd'],
    });
  });
});
