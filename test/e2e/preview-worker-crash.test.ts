// live.md §2 step 3 when the worker dies: a `baton worker` SIGKILLed while its turn's answer streams into the preview.
// The turn moves to another worker process, which runs it again as a new run: the chat ends with the answer once,
// and the dead run's preview (a partial copy of the answer) is gone.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keySpaceOf } from '../../src/queue/names.ts';
import { type BatonProcess, startBaton } from '../helpers/baton-process.ts';
import { runningMarks } from '../helpers/key-space.ts';
import { lastText, startTelegramFleet, type TelegramFleet, words } from '../helpers/telegram-fleet.ts';
import { waitFor } from '../helpers/wait.ts';

const CHAT = 901;
let f: TelegramFleet;
let dir: string;
const workers: BatonProcess[] = [];

beforeAll(async () => {
  f = await startTelegramFleet('preview-worker-crash');
  dir = mkdtempSync(join(tmpdir(), 'baton-live-crash-'));
  writeFileSync(join(dir, 'baton.toml'), f.configText);
});
afterAll(async () => {
  for (const w of workers) w.kill('SIGKILL');
  await Promise.all(workers.map((w) => w.exited));
  await f.close();
  rmSync(dir, { recursive: true, force: true });
});

async function startWorker(): Promise<BatonProcess> {
  // A short turn lock: a dead worker's turn moves on within about 3 s.
  const w = startBaton(['worker', '-c', join(dir, 'baton.toml')], { BATON_TURN_LOCK_MS: '2000' });
  workers.push(w);
  await w.waitFor(/baton worker running/, 30_000);
  return w;
}

describe('a worker killed while its answer streams', () => {
  it("the turn runs again elsewhere: one answer in the chat, the dead run's preview deleted", async () => {
    await f.gateway();
    await Promise.all([startWorker(), startWorker()]);
    // Both runs stream the same answer: a preview left behind would be a second, partial copy of it.
    const chunks = words('alpha', 20);
    const full = chunks.join('').trim();
    for (let i = 0; i < 2; i++)
      f.model.script([{ textChunks: chunks, chunkDelayMs: 250 }], { model: 'main-model' });
    f.say(CHAT, 'tell me slowly');
    await waitFor(() => f.visible(CHAT).length > 0, 30_000, "the first run's preview");
    // The worker running the turn, by the pid in its id (`<host>:<pid>:<random>`) on the running-turn mark.
    const [mark] = Object.values(await runningMarks(f.redis, keySpaceOf(f.config.redis)));
    const pid = Number(String(JSON.parse(mark!).workerId).split(':').at(-2));
    const running = workers.find((w) => w.child.pid === pid)!;
    running.kill('SIGKILL');
    await running.exited;

    await waitFor(() => f.visible(CHAT).some((m) => lastText(m) === full), 60_000, 'the answer');
    // Nothing more can come: the turn settled and every outbox entry was handled.
    await waitFor(async () => (await f.turnsIdle()) && (await f.outboxDrained()), 30_000, 'an idle fleet');
    expect(f.model.requests.filter((r) => r.body.model === 'main-model')).toHaveLength(2);
    const [answer, ...others] = f.visible(CHAT);
    expect(others.map(lastText)).toEqual([]);
    expect(lastText(answer!)).toBe(full);
    const deleted = f.tg.sent.filter((s) => s.message.chat.id === CHAT && s.deleted);
    expect(deleted.map((s) => full.startsWith(s.versions.at(-1)!.text.trim()))).toEqual([true]);
  }, 120_000);
});
