// Lanes: items of one lane run one at a time, lowest rank first; different lanes run concurrently.
// An item that is not ready yet ('wait') keeps its lane's place, but an item that arrives with a lower
// rank goes before it, so a reply never blocks the earlier reply it is waiting for.
import { setTimeout as sleep } from 'node:timers/promises';

export interface LaneOptions<T> {
  laneOf(item: T): string;
  /** Order inside a lane; undefined keeps arrival order. */
  rankOf(item: T): number | undefined;
  /** 'wait' looks again after `waitMs`, or sooner when the lane gets a new item. */
  process(item: T): Promise<'done' | 'wait'>;
  /** Called once an item leaves its lane (done, failed, or dropped on stop). */
  settled(item: T): void;
  onError(err: unknown): void;
  waitMs: number;
  signal: AbortSignal;
}

export interface Lanes<T> {
  add(item: T): void;
  /** Resolves when every lane has stopped (after the signal) or emptied. */
  idle(): Promise<void>;
}

interface Lane<T> {
  items: T[];
  wake: (() => void) | null;
  running: Promise<void>;
}

export function createLanes<T>(opts: LaneOptions<T>): Lanes<T> {
  const lanes = new Map<string, Lane<T>>();

  function insert(items: T[], item: T) {
    const rank = opts.rankOf(item);
    if (rank === undefined) return void items.push(item);
    let at = items.length;
    while (at > 0 && (opts.rankOf(items[at - 1]!) ?? -Infinity) > rank) at--;
    items.splice(at, 0, item);
  }

  async function run(key: string, lane: Lane<T>): Promise<void> {
    while (lane.items.length > 0 && !opts.signal.aborted) {
      const item = lane.items[0]!;
      let outcome: 'done' | 'wait' = 'done';
      try {
        outcome = await opts.process(item);
      } catch (err) {
        opts.onError(err); // the item stays in Redis, so a later reclaim retries it
      }
      if (outcome === 'wait') {
        const woken = new Promise<void>((r) => {
          lane.wake = r;
        });
        await Promise.race([woken, sleep(opts.waitMs, undefined, { signal: opts.signal }).catch(() => {})]);
        lane.wake = null;
        continue;
      }
      lane.items.splice(lane.items.indexOf(item), 1);
      opts.settled(item);
    }
    for (const item of lane.items.splice(0)) opts.settled(item);
    lanes.delete(key);
  }

  return {
    add(item) {
      const key = opts.laneOf(item);
      const existing = lanes.get(key);
      if (existing) {
        insert(existing.items, item);
        existing.wake?.();
        return;
      }
      const lane: Lane<T> = { items: [item], wake: null, running: Promise.resolve() };
      lanes.set(key, lane);
      lane.running = run(key, lane);
    },
    async idle() {
      await Promise.all([...lanes.values()].map((l) => l.running));
    },
  };
}
