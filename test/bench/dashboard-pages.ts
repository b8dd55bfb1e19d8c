// Dashboard page times: GET of the transcript page of a 10,000-message session (newest page and an older one)
// and of the sessions list with 1,000 sessions, over HTTP on Redis; beside it the raw Redis read of one page
// (MULTI LLEN + LRANGE 50) as the floor the page is compared with.

import { createSilentLogger } from '../../src/core/logger.ts';
import { createAbortBus } from '../../src/fleet/abort-bus.ts';
import { createRunningTurns } from '../../src/fleet/running-turns.ts';
import { createSessionAbort } from '../../src/fleet/session-abort.ts';
import { historyKeys } from '../../src/session/history-store.ts';
import { transcriptUrl } from '../../src/web/sessions/session-url.ts';
import { startDashboard } from '../helpers/dashboard-server.ts';
import { spaceOf } from '../helpers/key-space.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../helpers/redis.ts';
import { longHistory, seedHistory, seedSessions } from '../helpers/transcript-seed.ts';
import { percentile } from './stats.ts';

export interface PageTimes {
  p50Ms: number;
  p99Ms: number;
  bytes: number;
}

export interface DashboardFigures {
  transcriptFirst: PageTimes;
  transcriptOlder: PageTimes;
  sessionsFirst: PageTimes;
  sessionsMiddle: PageTimes;
  /** MULTI LLEN + LRANGE of 50 entries: what one transcript page costs Redis alone. */
  rawPageReadP50Ms: number;
  messages: number;
  sessions: number;
}

const LONG = 'local.test:long:';

export async function measureDashboardPages(
  redisUrl: string,
  o: { rounds: number; warmup: number } = { rounds: 200, warmup: 20 },
): Promise<DashboardFigures> {
  const redis = testRedis(redisUrl);
  const subscriber = testRedis(redisUrl);
  const prefix = uniquePrefix('bench-dashboard');
  const bus = createAbortBus(redis, subscriber, prefix, createSilentLogger());
  const dash = await startDashboard({
    redis,
    prefix,
    abortSession: createSessionAbort(createRunningTurns(redis, spaceOf(prefix)), bus),
  });
  try {
    await seedSessions(redis, spaceOf(prefix), 1000);
    await seedHistory(redis, spaceOf(prefix), 'main', LONG, longHistory(10_000));
    const time = async (path: string): Promise<PageTimes> => {
      const samples: number[] = [];
      let bytes = 0;
      for (let i = 0; i < o.warmup + o.rounds; i++) {
        const t0 = performance.now();
        const res = await fetch(`${dash.url}${path}`);
        const body = await res.text();
        if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
        if (i >= o.warmup) samples.push(performance.now() - t0);
        bytes = body.length;
      }
      return { p50Ms: percentile(samples, 50), p99Ms: percentile(samples, 99), bytes };
    };
    const url = transcriptUrl('main', LONG);
    const list = historyKeys(spaceOf(prefix), 'main', LONG)[0];
    const raw: number[] = [];
    for (let i = 0; i < o.warmup + o.rounds; i++) {
      const t0 = performance.now();
      await redis.multi().llen(list).lrange(list, -50, -1).exec();
      if (i >= o.warmup) raw.push(performance.now() - t0);
    }
    return {
      transcriptFirst: await time(url),
      transcriptOlder: await time(`${url}?before=5000`),
      sessionsFirst: await time('/'),
      sessionsMiddle: await time('/?offset=500'),
      rawPageReadP50Ms: percentile(raw, 50),
      messages: 10_000,
      sessions: 1000,
    };
  } finally {
    await dash.close();
    await bus.close();
    await deletePrefix(redis, prefix);
    await redis.quit();
    subscriber.disconnect();
  }
}

// `node test/bench/dashboard-pages.ts`: this lane alone.
if (import.meta.main) {
  const { REDIS_URL } = await import('../helpers/redis.ts');
  process.stdout.write(`${JSON.stringify(await measureDashboardPages(REDIS_URL), null, 2)}\n`);
  process.exit(0);
}
