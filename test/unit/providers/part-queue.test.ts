// The part queue baton's own model client fills (part-reader.ts): reads in order, then the end or the failure.
import { describe, expect, test } from 'vitest';
import { PartQueue } from '../../../src/providers/part-reader.ts';
import type { SdkStreamPart } from '../../../src/providers/sdk-model.ts';

const delta = (d: string): SdkStreamPart => ({ type: 'text-delta', id: 't', delta: d });

describe('PartQueue', () => {
  test('parts pushed before and while a read waits come out in order, then done', async () => {
    const q = new PartQueue(() => {});
    q.push(delta('a'));
    q.push(delta('b'));
    expect(await q.read()).toEqual({ done: false, value: delta('a') });
    expect(await q.read()).toEqual({ done: false, value: delta('b') });
    const waiting = q.read();
    q.push(delta('c'));
    expect(await waiting).toEqual({ done: false, value: delta('c') });
    q.end();
    expect(await q.read()).toEqual({ done: true, value: undefined });
    expect(await q.read()).toEqual({ done: true, value: undefined });
  });

  test('a failure comes after the parts before it, to a waiting read as well', async () => {
    const q = new PartQueue(() => {});
    q.push(delta('a'));
    const boom = new Error('boom');
    q.fail(boom);
    q.push(delta('late')); // after the end: dropped
    expect(await q.read()).toEqual({ done: false, value: delta('a') });
    await expect(q.read()).rejects.toBe(boom);
    const w = new PartQueue(() => {});
    const waiting = w.read();
    w.fail(boom);
    await expect(waiting).rejects.toBe(boom);
  });

  test('cancel stops the producer once, ends a waiting read, and drops queued parts', async () => {
    let cancels = 0;
    const q = new PartQueue(() => cancels++);
    const waiting = q.read();
    await q.cancel();
    expect(await waiting).toEqual({ done: true, value: undefined });
    q.push(delta('x'));
    expect(await q.read()).toEqual({ done: true, value: undefined });
    await q.cancel();
    expect(cancels).toBe(1);
    const ended = new PartQueue(() => cancels++);
    ended.push(delta('y'));
    ended.end();
    await ended.cancel(); // after the end: the producer is not told
    expect(cancels).toBe(1);
  });
});
