// Fault tolerance with real worker processes: SIGKILL one mid-run; every message still gets exactly one reply.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BatonProcess, startBaton } from '../helpers/baton-process.ts';
import { activeConversations } from '../helpers/key-space.ts';
import {
  createRuntimeHarness,
  echoResponder,
  type RuntimeHarness,
  runtimeToml,
} from '../helpers/runtime-harness.ts';

const TOML = runtimeToml(`[worker]\nconcurrency = 16\n`);

const CHATS = 50;
const PER_CHAT = 10;

let h: RuntimeHarness;
let cfgPath: string;
const workers: BatonProcess[] = [];

beforeAll(async () => {
  // The in-process harness provides the fake model, Redis prefix and the gateway with the local channel;
  // its own in-process worker is not started (workers: 0): real `baton worker` processes run the turns.
  h = await createRuntimeHarness('crash', TOML, { workers: 0 });
  cfgPath = join(h.dataDir, 'baton.toml');
  writeFileSync(cfgPath, h.configText);
});

afterAll(async () => {
  for (const w of workers) w.kill('SIGKILL');
  await h.close();
});

function startWorker(): BatonProcess {
  const w = startBaton(['worker', '-c', cfgPath], { BATON_TURN_LOCK_MS: '2000' });
  workers.push(w);
  return w;
}

describe('a worker killed mid-run', () => {
  it('loses no message and duplicates no reply (500 messages, SIGKILL and restart)', async () => {
    h.server.respond(echoResponder(() => 15));
    const a = startWorker();
    const b = startWorker();
    await Promise.all([a.waitFor(/baton worker running/), b.waitFor(/baton worker running/)]);

    const sends: Promise<unknown>[] = [];
    for (let i = 0; i < PER_CHAT; i++) {
      for (let c = 0; c < CHATS; c++) sends.push(h.local.inject({ chat: `chat-${c}`, text: `m${c}-${i}` }));
    }
    await Promise.all(sends);

    await h.local.waitForReplies(100, { timeoutMs: 30_000 });
    a.kill('SIGKILL');
    await a.exited;
    const a2 = startWorker();
    await a2.waitFor(/baton worker running/);

    await h.local.waitForReplies(CHATS * PER_CHAT, { timeoutMs: 60_000 });
    // Every message answered exactly once, in order per conversation.
    for (let c = 0; c < CHATS; c++) {
      const texts = h.local.replies.filter((r) => r.to.chat === `chat-${c}`).map((r) => r.text);
      expect(texts).toEqual(Array.from({ length: PER_CHAT }, (_, i) => `echo: m${c}-${i}`));
    }
    // Nothing more arrives once the queues are drained.
    const inbox = await activeConversations(h.redis, h.space);
    expect(inbox).toEqual([]);
    expect(h.local.replies).toHaveLength(CHATS * PER_CHAT);
  }, 120_000);
});
