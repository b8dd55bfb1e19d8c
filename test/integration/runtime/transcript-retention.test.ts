// The stored transcript is kept apart from the model's window: a session keeps its newest
// `[worker] transcript_max_entries` entries (not 400), through the settle path of real turns, and the dashboard's
// transcript reader pages through all of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationId } from '../../../src/channel-host/types.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { readHistoryEntries } from '../../../src/session/history-entry.ts';
import { createHistoryStore, historyKeys } from '../../../src/session/history-store.ts';
import { readTranscriptPage } from '../../../src/web/transcript/transcript-reader.ts';
import {
  createRuntimeHarness,
  echoResponder,
  type RuntimeHarness,
  runtimeToml,
} from '../../helpers/runtime-harness.ts';

const KEPT = 425;
let h: RuntimeHarness;
beforeAll(async () => {
  h = await createRuntimeHarness(
    'transcript-retention',
    runtimeToml(`[worker]\ntranscript_max_entries = ${KEPT}\n`, ['alice']),
  );
  h.server.respond(echoResponder());
});
afterAll(() => h.close());

describe('the stored transcript', () => {
  it('keeps more than 400 entries, up to [worker] transcript_max_entries, newest kept', async () => {
    const session = conversationId('local.test', 'tr1');
    const [list] = historyKeys(h.space, 'main', session);
    // An earlier long conversation: 210 exchanges (420 entries), stored as the turn worker stores them.
    const store = createHistoryStore(h.redis, h.space, createSilentLogger(), KEPT);
    const seeded = Array.from({ length: 420 }, (_, i) =>
      i % 2 === 0
        ? { role: 'user' as const, content: `q${i}` }
        : { role: 'assistant' as const, content: `a${i}` },
    );
    await store.append('main', session, 'seed', seeded);

    await h.local.inject({ chat: 'tr1', text: 'one', senderId: 'alice' });
    await h.local.waitForReplies(1, { chat: 'tr1', timeoutMs: 20_000 });
    expect(await h.redis.llen(list)).toBe(422); // a 400 cap would have dropped the 22 oldest

    const page = await readTranscriptPage(h.redis, h.space, 'main', session, 50);
    expect(page.total).toBe(422);
    expect(
      readHistoryEntries(
        page.entries.map((e) => e.raw),
        { logger: createSilentLogger(), key: list },
      )[0],
    ).toEqual({ role: 'user', content: 'q0' });

    for (const [n, text] of [
      [2, 'two'],
      [3, 'three'],
    ] as const) {
      await h.local.inject({ chat: 'tr1', text, senderId: 'alice' });
      await h.local.waitForReplies(n, { chat: 'tr1', timeoutMs: 20_000 });
    }
    // 426 stored, bounded at 425: the oldest goes, the newest stays.
    expect(await h.redis.llen(list)).toBe(KEPT);
    const all = readHistoryEntries(await h.redis.lrange(list, 0, -1), {
      logger: createSilentLogger(),
      key: list,
    });
    expect(all[0]).toEqual({ role: 'assistant', content: 'a1' });
    expect(all.at(-1)).toEqual({ role: 'assistant', content: 'echo: three' });
  });
});
