// The signal watcher of long-running roles: one graceful stop, repeats and SIGHUP never fall back to Node's
// default (which would kill the process mid-turn).
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { alreadyStopping, reloadWhileStarting } from '../../../src/roles/role-messages.ts';
import { watchStopSignals } from '../../../src/roles/stop-signals.ts';

function setup() {
  const source = new EventEmitter();
  const lines: string[] = [];
  const watch = watchStopSignals((l) => lines.push(l), source);
  const send = (signal: string) => source.emit(signal, signal);
  return { source, lines, watch, send };
}

describe('watchStopSignals', () => {
  it('resolves with the first stop signal and keeps handling repeats', async () => {
    const { source, lines, watch, send } = setup();
    send('SIGINT');
    send('SIGINT');
    send('SIGTERM');
    await expect(watch.stopped).resolves.toBe('SIGINT');
    expect(lines).toEqual([alreadyStopping('SIGINT'), alreadyStopping('SIGTERM')]);
    // A listener left in place is what keeps Node from applying the default action (terminate).
    expect(source.listenerCount('SIGINT')).toBe(1);
    expect(source.listenerCount('SIGTERM')).toBe(1);
  });

  it("waits for a signal's later copy (npm's forwarded Ctrl-C), or for the time limit", async () => {
    const { watch, send } = setup();
    send('SIGINT');
    let copy = false;
    const waiting = watch.received('SIGINT', 2, 60_000).then(() => {
      copy = true;
    });
    await Promise.resolve();
    expect(copy).toBe(false);
    send('SIGINT');
    await waiting;
    expect(copy).toBe(true);
    // Already seen twice: no wait; never seen: the limit ends the wait.
    await watch.received('SIGINT', 2, 60_000);
    const started = Date.now();
    await watch.received('SIGTERM', 1, 50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('acknowledges SIGHUP while starting, then hands it to the reload handler, never stopping', async () => {
    const { source, lines, watch, send } = setup();
    send('SIGHUP');
    expect(lines).toEqual([reloadWhileStarting('SIGHUP')]);
    const reloads: string[] = [];
    watch.onReload((s) => reloads.push(s));
    send('SIGHUP');
    send('SIGHUP');
    expect(reloads).toEqual(['SIGHUP', 'SIGHUP']);
    expect(lines).toHaveLength(1);
    expect(source.listenerCount('SIGHUP')).toBe(1);
    send('SIGTERM');
    await expect(watch.stopped).resolves.toBe('SIGTERM');
  });

  it('removes every handler on dispose', () => {
    const { source, watch } = setup();
    watch.dispose();
    for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) expect(source.listenerCount(s)).toBe(0);
  });
});
