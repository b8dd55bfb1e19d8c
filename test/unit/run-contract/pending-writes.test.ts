import { describe, expect, it } from 'vitest';
import { createPendingWrites } from '../../../src/run-contract/pending-writes.ts';

function deferred() {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const recordingLogger = () => {
  const errors: [Record<string, unknown>, string][] = [];
  return { errors, logger: { error: (o: Record<string, unknown>, msg: string) => errors.push([o, msg]) } };
};

describe('pending writes', () => {
  it('landed() waits for every write added, including one added while waiting', async () => {
    const { logger } = recordingLogger();
    const writes = createPendingWrites(logger as never);
    const a = deferred();
    const b = deferred();
    void writes.add(a.promise, 'a failed'); // settles once `a` does
    let landed = false;
    const all = writes.landed().then(() => {
      landed = true;
    });
    void writes.add(b.promise, 'b failed');
    a.resolve();
    await a.promise;
    await Promise.resolve();
    expect(landed).toBe(false);
    b.resolve();
    await all;
    expect(landed).toBe(true);
  });

  it('a failed write is logged with its fields and never thrown, to add() or to landed()', async () => {
    const { logger, errors } = recordingLogger();
    const writes = createPendingWrites(logger as never);
    const a = deferred();
    const tracked = writes.add(a.promise, 'cost not recorded', { micro_usd: 42 });
    a.reject(new Error('Connection is closed.'));
    await expect(tracked).resolves.toBeUndefined();
    await expect(writes.landed()).resolves.toBeUndefined();
    expect(errors).toEqual([[{ micro_usd: 42, err: 'Connection is closed.' }, 'cost not recorded']]);
  });

  it('landed() with nothing pending resolves at once', async () => {
    const { logger } = recordingLogger();
    await expect(createPendingWrites(logger as never).landed()).resolves.toBeUndefined();
  });
});
