// Attachments across the fleet (media.md §1): a redelivered message downloads once and starts one turn, a model
// without vision gets the lines alone, history keeps text only, and a worker on another data dir reads what the
// gateway stored in Redis (a turn handed over mid-run is re-materialised there).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { startWorkerRole } from '../../../src/roles/worker-role.ts';
import { createHistoryStore } from '../../../src/session/history-store.ts';
import { lastUserPartsOf } from '../../fakes/model-requests.ts';
import { spaceOf } from '../../helpers/key-space.ts';
import { createRuntimeHarness, type RuntimeHarness } from '../../helpers/runtime-harness.ts';
import { loadTestConfig } from '../../helpers/test-config.ts';
import { filesUnder, mediaToml, PNG, sendFiles, workspaceOf } from './media-fixture.ts';

let h: RuntimeHarness;
let held: Promise<void> | null = null;
const otherDirs: string[] = [];

beforeAll(async () => {
  h = await createRuntimeHarness('media-fleet', mediaToml());
  h.server.respond(() => {
    if (!held) return { text: 'seen' };
    const gate = held;
    held = null;
    return { text: 'late', until: gate };
  });
});
afterAll(async () => {
  await h?.close();
  for (const d of otherDirs) rmSync(d, { recursive: true, force: true });
});

describe('worker: attachments across redelivery, models and workers', () => {
  it('a model without vision (not in baton table, no `vision`): the line alone; history keeps only text', async () => {
    const s = await sendFiles(h, 'plain', [{ kind: 'image', name: 'p.png', bytes: PNG }], 'look');
    const text = `look\n[attachment: image p.png, ${PNG.length} B, saved as ${s.rel('p.png')}]`;
    expect(lastUserPartsOf(s.requests[0]!)).toEqual([{ type: 'text', text }]);
    const history = await createHistoryStore(h.redis, spaceOf(h.prefix), createSilentLogger()).load(
      'main',
      s.conversation,
    );
    expect(history[0]).toEqual({ role: 'user', content: text });
  });

  it('a voice note without [transcription]: stored, and its saved-as line only', async () => {
    const ogg = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(20, 3)]);
    const s = await sendFiles(h, 'voice', [{ kind: 'voice', name: 'voice.ogg', bytes: ogg }]);
    expect(lastUserPartsOf(s.requests[0]!)).toEqual([
      {
        type: 'text',
        text: `[attachment: voice voice.ogg, ${ogg.length} B, saved as ${s.rel('voice.ogg')}]`,
      },
    ]);
    expect(h.server.transcriptions).toEqual([]);
  });

  it('a redelivered message downloads once and starts one turn', async () => {
    const chat = 'redeliver';
    const before = { downloads: h.local.downloads.length, requests: h.server.requests.length };
    const files = [{ kind: 'image' as const, name: 'r.png', bytes: PNG }];
    const first = await h.local.inject({ chat, text: 'once', eventId: 'rd-1', files });
    const again = await h.local.inject({ chat, text: 'once', eventId: 'rd-1', files });
    expect(first.accepted).toBe(true);
    expect(again).toEqual({ accepted: false, reason: 'duplicate' });
    await h.local.inject({ chat, text: 'next', eventId: 'rd-2' });
    const replies = await h.local.waitForReplies(2, { chat, timeoutMs: 30_000 });
    // Had the duplicate started a turn, its reply would come before `next`'s.
    expect(replies.map((r) => r.text)).toEqual(['seen', 'seen']);
    expect(h.local.downloads.slice(before.downloads)).toEqual(['local-file:rd-1:0']);
    expect(h.server.requests.length - before.requests).toBe(2);
    // Redelivered after its turn settled: still no download (the stored copy is found), still no turn.
    expect(await h.local.inject({ chat, text: 'once', eventId: 'rd-1', files })).toEqual({
      accepted: false,
      reason: 'duplicate',
    });
    expect(h.local.downloads.length - before.downloads).toBe(1);
  });

  it('a worker on another data dir reads what the gateway stored: a turn handed over is saved there too', async () => {
    const chat = 'handover';
    let release = () => {};
    held = new Promise<void>((r) => {
      release = r;
    });
    const requests = h.server.requests.length;
    await h.local.inject({
      chat,
      text: 'hold',
      eventId: 'ho-1',
      files: [{ kind: 'image', name: 'h.png', bytes: PNG }],
    });
    await h.server.waitForRequests(requests + 1, 30_000);
    const rel = `inbox/local.test_handover_/ho-1-h.png`;
    expect(readFileSync(join(workspaceOf(h.dataDir), rel)).equals(PNG)).toBe(true);

    // The first worker stops mid-turn (grace 0): the turn is handed back; a worker with its own data dir takes it.
    const [first] = h.workers.splice(0);
    await first?.close(0);
    release();
    const otherDir = mkdtempSync(join(tmpdir(), 'baton-media-other-'));
    otherDirs.push(otherDir);
    const { config } = loadTestConfig(h.configText.replaceAll(h.dataDir, otherDir));
    h.workers.push(await startWorkerRole({ config, logger: createSilentLogger(), redis: h.redis, env: {} }));
    const replies = await h.local.waitForReplies(1, { chat, timeoutMs: 30_000 });
    expect(replies.map((r) => r.text)).toEqual(['seen']);
    expect(filesUnder(workspaceOf(otherDir))).toEqual([rel]);
    expect(readFileSync(join(workspaceOf(otherDir), rel)).equals(PNG)).toBe(true);
    const last = h.server.requests.at(-1);
    expect(last && lastUserPartsOf(last)).toEqual([
      { type: 'text', text: `hold\n[attachment: image h.png, ${PNG.length} B, saved as ${rel}]` },
    ]);

    // A second conversation now lands on the other worker too, from the same Redis.
    const s = await sendFiles(h, 'later', [{ kind: 'document', name: 'n.txt', bytes: Buffer.from('note') }]);
    expect(readFileSync(join(workspaceOf(otherDir), s.rel('n.txt'))).toString()).toBe('note');
  });
});
