// The worker crash drill: real `baton worker` processes behind the in-process gateway of a runtime harness, a burst
// of messages over many conversations, one worker SIGKILLed mid-run and restarted. Shared by the one-Redis test
// (test/e2e/worker-crash.test.ts) and the Cluster one (test/e2e/cluster/), which assert the same figures.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BatonProcess, startBaton } from './baton-process.ts';
import { echoResponder, type RuntimeHarness } from './runtime-harness.ts';

export interface WorkerCrashPlan {
  chats: number;
  perChat: number;
  /** The worker dies once this many replies are out. */
  killAfter: number;
}

export interface WorkerCrashDrill {
  /** The `baton worker` processes it started (for afterAll: SIGKILL whatever still runs). */
  workers: BatonProcess[];
  /** Runs the drill; resolves once every message is answered (or the wait times out: then it throws). */
  run(): Promise<void>;
  /** The replies of one chat, in the order they were sent. */
  repliesOf(chat: number): string[];
  /** What each chat should have got: `echo: m<c>-<i>` for i in order. */
  expectedOf(chat: number): string[];
}

export function workerCrashDrill(h: RuntimeHarness, plan: WorkerCrashPlan): WorkerCrashDrill {
  const cfgPath = join(h.dataDir, 'baton.toml');
  writeFileSync(cfgPath, h.configText);
  const workers: BatonProcess[] = [];
  const startWorker = () => {
    const w = startBaton(['worker', '-c', cfgPath], { BATON_TURN_LOCK_MS: '2000' });
    workers.push(w);
    return w;
  };
  return {
    workers,
    async run() {
      h.server.respond(echoResponder(() => 15));
      const a = startWorker();
      const b = startWorker();
      await Promise.all([
        a.waitFor(/baton worker running/, 30_000),
        b.waitFor(/baton worker running/, 30_000),
      ]);
      const sends: Promise<unknown>[] = [];
      for (let i = 0; i < plan.perChat; i++) {
        for (let c = 0; c < plan.chats; c++)
          sends.push(h.local.inject({ chat: `chat-${c}`, text: `m${c}-${i}` }));
      }
      await Promise.all(sends);
      await h.local.waitForReplies(plan.killAfter, { timeoutMs: 30_000 });
      a.kill('SIGKILL');
      await a.exited;
      const a2 = startWorker();
      await a2.waitFor(/baton worker running/, 30_000);
      await h.local.waitForReplies(plan.chats * plan.perChat, { timeoutMs: 60_000 });
    },
    repliesOf: (c) => h.local.replies.filter((r) => r.to.chat === `chat-${c}`).map((r) => r.text),
    expectedOf: (c) => Array.from({ length: plan.perChat }, (_, i) => `echo: m${c}-${i}`),
  };
}
