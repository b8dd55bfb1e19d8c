// The reply's `finishes` field (live.md §2 step 3): the runs of a turn whose previews the answer replaces.
import { describe, expect, it } from 'vitest';
import { outboxEntryArgs, parseOutboxEntry } from '../../../src/queue/outbox-entry.ts';

const R1 = '3f1c2b9e-5d4a-4c7b-9e8f-0a1b2c3d4e5f';
const R2 = '7a0d9c4e-1b2f-4e3a-8c5d-6f7a8b9c0d1e';
const to = { channel: 'telegram.home', chat: '5' };

/** The stream entry the fragment writes from the ARGV block (to, text, conv, seq, tag). */
function written(args: (string | number)[]): [string, string[]] {
  const [toJson, text, conv, seq, tag] = args.map(String);
  const [field, value] = [tag!.slice(0, tag!.indexOf(':')), tag!.slice(tag!.indexOf(':') + 1)];
  return ['1-0', ['to', toJson!, 'text', text!, 'conv', conv!, 'seq', seq!, ...(tag ? [field, value] : [])]];
}

describe('an answer that finishes previews', () => {
  it('names the runs in order, the answering run last', () => {
    const entry = parseOutboxEntry(written(outboxEntryArgs({ to, text: 'hi', finishes: [R1, R2] })), false);
    expect(entry?.finishes).toEqual([R1, R2]);
  });

  it('reads one root written as a string (queued by the previous version)', () => {
    const raw: [string, string[]] = [
      '1-0',
      ['to', JSON.stringify(to), 'text', 'hi', 'conv', '', 'seq', '', 'finishes', JSON.stringify(R1)],
    ];
    expect(parseOutboxEntry(raw, false)?.finishes).toEqual([R1]);
  });

  it('still sends the answer when the field is unreadable or empty', () => {
    for (const bad of ['[]', '"not-a-uuid"', '{', '[1]']) {
      const raw: [string, string[]] = [
        '1-0',
        ['to', JSON.stringify(to), 'text', 'hi', 'conv', '', 'seq', '', 'finishes', bad],
      ];
      const entry = parseOutboxEntry(raw, false);
      expect(entry?.text).toBe('hi');
      expect(entry?.finishes).toBeUndefined();
      expect(entry?.malformed).toBeUndefined();
    }
  });
});
