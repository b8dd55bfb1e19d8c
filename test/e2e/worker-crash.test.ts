// Fault tolerance with real worker processes: SIGKILL one mid-run; every message still gets exactly one reply.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeConversations } from '../helpers/key-space.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../helpers/runtime-harness.ts';
import { type WorkerCrashDrill, workerCrashDrill } from '../helpers/worker-crash-drill.ts';

const TOML = runtimeToml(`[worker]\nconcurrency = 16\n`);

const CHATS = 50;
const PER_CHAT = 10;

let h: RuntimeHarness;
let drill: WorkerCrashDrill;

beforeAll(async () => {
  // The in-process harness provides the fake model, Redis prefix and the gateway with the local channel;
  // its own in-process worker is not started (workers: 0): real `baton worker` processes run the turns.
  h = await createRuntimeHarness('crash', TOML, { workers: 0 });
  drill = workerCrashDrill(h, { chats: CHATS, perChat: PER_CHAT, killAfter: 100 });
});

afterAll(async () => {
  for (const w of drill?.workers ?? []) w.kill('SIGKILL');
  await h.close();
});

describe('a worker killed mid-run', () => {
  it('loses no message and duplicates no reply (500 messages, SIGKILL and restart)', async () => {
    await drill.run();
    // Every message answered exactly once, in order per conversation.
    for (let c = 0; c < CHATS; c++) expect(drill.repliesOf(c)).toEqual(drill.expectedOf(c));
    // Nothing more arrives once the queues are drained.
    const inbox = await activeConversations(h.redis, h.space);
    expect(inbox).toEqual([]);
    expect(h.local.replies).toHaveLength(CHATS * PER_CHAT);
  }, 120_000);
});
