// The gateway crash drill: replies already in the outbox, a gateway process (test/e2e/fixtures/gateway-process.ts)
// SIGKILLed mid-send, another gateway taking the replies over. Shared by the one-Redis test
// (test/e2e/gateway-crash.test.ts) and the Cluster one (test/e2e/cluster/); the `target` decides where.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { expect } from 'vitest';
import type { KeySpace } from '../../src/core/key-layout.ts';
import type { RedisTarget } from '../../src/core/redis-target.ts';
import { createReplyOutbox } from '../../src/queue/reply-outbox.ts';
import { waitFor } from './wait.ts';

const FIXTURE = join(import.meta.dirname, '..', 'e2e', 'fixtures', 'gateway-process.ts');

export interface GatewayCrashPlan {
  chats: number;
  perChat: number;
}

export interface Delivered {
  chat: string;
  text: string;
  pid: number;
}

export interface GatewayCrashDrill {
  /** The gateways it started (for afterAll: SIGKILL whatever still runs). */
  children: ChildProcess[];
  /** Enqueues every reply, kills the first gateway after 100 sends, lets the second finish; what was sent. */
  run(): Promise<Delivered[]>;
}

export function gatewayCrashDrill(
  redis: Redis,
  target: RedisTarget,
  space: KeySpace,
  plan: GatewayCrashPlan,
): GatewayCrashDrill {
  const { prefix } = space;
  const chatKey = `${prefix}:fake-chat`;
  const children: ChildProcess[] = [];
  const startGateway = (): Promise<ChildProcess> => {
    const child = spawn(process.execPath, [FIXTURE], {
      env: {
        ...process.env,
        REDIS_TARGET: JSON.stringify(target),
        PREFIX: prefix,
        CHAT_KEY: chatKey,
        SEND_MS: '15',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    return new Promise((resolve, reject) => {
      child.on('exit', (code) => reject(new Error(`gateway exited early (${code})`)));
      child.stdout?.on('data', (d) => String(d).includes('ready') && resolve(child));
    });
  };
  const delivered = async () => (await redis.lrange(chatKey, 0, -1)).map((r) => JSON.parse(r) as Delivered);
  return {
    children,
    async run() {
      const outbox = createReplyOutbox(redis, space);
      for (let i = 1; i <= plan.perChat; i++) {
        for (let c = 0; c < plan.chats; c++) {
          const chat = `chat-${c}`;
          await outbox.enqueue({ channel: 'local.test', chat }, { text: `m${i}` }, `${chat}-${i}`, {
            conversation: `local.test:${chat}:`,
            seq: i,
          });
        }
      }
      const a = await startGateway();
      await waitFor(async () => (await redis.llen(chatKey)) >= 100, 20_000, '100 sends');
      a.kill('SIGKILL');
      await new Promise((r) => a.once('exit', r));
      await startGateway();
      await waitFor(
        async () =>
          new Set((await delivered()).map((d) => `${d.chat}/${d.text}`)).size === plan.chats * plan.perChat,
        30_000,
        'every reply',
      );
      return delivered();
    },
  };
}

/** Per chat: the texts in the order sent, and how many sends repeat the one before (a send cut off by the kill). */
function perChat(got: Delivered[], chat: string): { deduped: string[]; repeats: number } {
  const texts = got.filter((d) => d.chat === chat).map((d) => d.text);
  const deduped = texts.filter((t, i) => t !== texts[i - 1]);
  return { deduped, repeats: texts.length - deduped.length };
}

/**
 * The drill's figures as both tests (one Redis, Cluster) assert them: every chat got every reply in order, a send
 * the kill cut off before its acknowledgement at most once again right after itself, from two gateways.
 */
export function expectCleanTakeover(got: Delivered[], chats: number, perChatCount: number): void {
  for (let c = 0; c < chats; c++) {
    const { deduped, repeats } = perChat(got, `chat-${c}`);
    expect(deduped).toEqual(Array.from({ length: perChatCount }, (_, i) => `m${i + 1}`));
    expect(repeats).toBeLessThanOrEqual(1);
  }
  expect(new Set(got.map((d) => d.pid)).size).toBe(2);
}
