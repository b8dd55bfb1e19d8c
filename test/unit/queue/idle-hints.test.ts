// The idle hints a worker leaves for the gateway of its process: one early kick per note, bounded.
import { describe, expect, it } from 'vitest';
import { createIdleHints } from '../../../src/queue/idle-hints.ts';

describe('idle hints', () => {
  it('hands a note out once', () => {
    const hints = createIdleHints();
    expect(hints.takeIdle('a')).toBe(false);
    hints.noteIdle('a');
    expect(hints.takeIdle('b')).toBe(false);
    expect(hints.takeIdle('a')).toBe(true);
    expect(hints.takeIdle('a')).toBe(false); // the next message may find the conversation busy
  });

  it('keeps the newest notes when full, a note renewed counting as new', () => {
    const hints = createIdleHints(3);
    for (const c of ['a', 'b', 'c']) hints.noteIdle(c);
    hints.noteIdle('a'); // renewed: now the newest
    hints.noteIdle('d'); // full: the oldest (b) goes
    expect(['a', 'b', 'c', 'd'].map((c) => hints.takeIdle(c))).toEqual([true, false, true, true]);
  });
});
