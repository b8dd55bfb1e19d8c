import clusterKeySlot from 'cluster-key-slot';
import { describe, expect, it } from 'vitest';
import {
  assertOneSlot,
  CrossSlotError,
  conversationTag,
  globalTag,
  partitionOf,
  partitionTag,
  slotOf,
} from '../../../src/core/key-layout.ts';

describe('key layout', () => {
  it('maps a conversation to a stable partition in range', () => {
    expect(partitionOf('telegram.main:42', 1)).toBe(0);
    // FNV-1a 32 of "telegram.main:42", pinned: a change would move live conversations to another queue.
    expect(partitionOf('telegram.main:42', 16)).toBe(11);
    const seen = new Set(Array.from({ length: 2000 }, (_, i) => partitionOf(`c${i}`, 16)));
    expect(seen.size).toBe(16);
  });

  it('puts keys of one tag in one slot and refuses keys of two', () => {
    const tag = conversationTag({ prefix: 'baton', partitions: 16 }, 'x');
    expect(slotOf(`${tag}:inbox:x`)).toBe(slotOf(`${tag}:conv-seq:x`));
    expect(() => assertOneSlot('site', [`${tag}:a`, `${tag}:b`])).not.toThrow();
    expect(() =>
      assertOneSlot('site', [`${partitionTag('baton', 0)}:a`, `${partitionTag('baton', 1)}:a`]),
    ).toThrow(CrossSlotError);
    expect(globalTag('baton', 'cost')).toBe('{baton:cost}');
  });

  it('compares slots, not tags: two tags in one slot pass, an empty tag hashes the whole key', () => {
    let other = 0;
    while (slotOf(`{y${other}}:b`) !== slotOf('{x}:a')) other++;
    expect(() => assertOneSlot('site', ['{x}:a', `{y${other}}:b`])).not.toThrow();
    expect(slotOf('{}:a')).not.toBe(slotOf('{}:b'));
    expect(() => assertOneSlot('site', ['{}:a', '{}:b'])).toThrow(CrossSlotError);
  });

  it("gives the slot Redis computes, the tag's slot cached or not", () => {
    // Known slots (CLUSTER KEYSLOT): the tag alone decides, an empty or unclosed one does not.
    expect(slotOf('foo')).toBe(12182);
    expect(slotOf('{user1000}.following')).toBe(slotOf('{user1000}.followers'));
    const keys = [
      '{baton:p3}:inbox:telegram.main:42',
      '{baton:p3}:run-events:abc',
      '{}:a',
      '{a{b}:c',
      'a{b',
      '}{x}',
      '{x}}{y}',
      'plain:key:é',
      '{é:p0}:x',
    ];
    for (let round = 0; round < 2; round++)
      for (const k of keys) expect(slotOf(k), k).toBe(clusterKeySlot(k));
    // Many tags (more than the cache keeps) still answer right.
    for (let i = 0; i < 5000; i++) expect(slotOf(`{t${i}}:k`)).toBe(clusterKeySlot(`{t${i}}:k`));
  });
});
