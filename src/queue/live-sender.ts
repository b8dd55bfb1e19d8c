// Sends a turn's live messages (live.md §2, §3) and hands its preview over to the answer (§2 step 3). Live ops are
// skipped, never retried or queued, while the channel is rate limited (§2 step 5); the progress summary (`last`)
// and the answer's edit of the preview wait and retry like any reply.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { chunkMarkdown } from '../channel-host/markdown/chunk.ts';
import { type ChannelAdapter, ChannelRateLimitError, type MessageRef } from '../channel-host/types.ts';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import type { LiveSlots } from './live-slots.ts';
import { livePaceKey } from './names.ts';
import type { LiveOp, OutboxEntry } from './outbox-entry.ts';

/** A platform's retry_after holds every send of the channel: shared with the reply sender. */
export interface ChannelPause {
  until: number;
}

export interface LiveSenderOptions {
  adapter: ChannelAdapter;
  redis: Redis;
  prefix: string;
  logger: Logger;
  slots: LiveSlots;
  pause: ChannelPause;
  maxAttempts: number;
  redact?: ((text: string) => string) | undefined;
  signal: AbortSignal;
}

export interface LiveSender {
  /** One live op: post or edit its slot's message, or skip it. Never throws for a platform failure. */
  show(entry: OutboxEntry & { live: LiveOp }): Promise<void>;
  /**
   * Edits the newest preview of `roots` (runs of one turn, the answering run last) into the answer's first chunk:
   * true when done. False sends the answer as new messages. Every other preview, and one that could not be
   * edited, is deleted where the platform allows.
   */
  replacePreview(roots: readonly string[], entry: OutboxEntry, firstChunk: string): Promise<boolean>;
}

export function createLiveSender(opts: LiveSenderOptions): LiveSender {
  const { adapter, logger, slots, pause, signal } = opts;
  const wait = (ms: number) => sleep(ms, undefined, { signal }).catch(() => {});
  const rateLimited = (err: unknown) => {
    if (!(err instanceof ChannelRateLimitError)) return false;
    pause.until = Math.max(pause.until, Date.now() + err.retryAfterMs);
    logger.warn(
      { channel: adapter.key, retry_after_ms: err.retryAfterMs },
      'channel rate limited; pausing sends',
    );
    return true;
  };

  /** Waits until the chat's last live op is `gap` old (the chat's one edit budget, whichever gateway sent it). */
  async function paced(key: string, gap: number): Promise<void> {
    if (gap <= 0) return;
    for (let ttl = await opts.redis.pttl(key); ttl > 0 && !signal.aborted; ttl = await opts.redis.pttl(key)) {
      await wait(ttl);
    }
  }

  /** One post or edit; a `last` op waits out a rate limit and retries, others give up at once. */
  async function deliver(op: LiveOp, entry: OutboxEntry, ref: MessageRef | null, text: string) {
    for (let attempt = 1; attempt <= opts.maxAttempts && !signal.aborted; attempt++) {
      if (Date.now() < pause.until) {
        if (!op.last) return null;
        await wait(pause.until - Date.now());
      }
      try {
        if (ref) {
          await adapter.edit(ref, { text });
          return null;
        }
        return await adapter.send(entry.to, { text });
      } catch (err) {
        if (rateLimited(err) && op.last) continue;
        logger.debug(
          { channel: adapter.key, slot: op.slot, err: errorMessage(err) },
          'live message not shown',
        );
        return null;
      }
    }
    return null;
  }

  return {
    async show(entry) {
      const op = entry.live;
      const text = chunkMarkdown(
        opts.redact ? opts.redact(entry.text) : entry.text,
        adapter.maxMessageLength,
      )[0];
      const turn = { root: op.root, to: entry.to };
      let begun = await slots.begin(turn, op.slot);
      // Only a summary waits for the slot (a crashed op's mark lapses); a plain show is simply skipped.
      while (begun.kind === 'busy' && op.last && !signal.aborted) {
        await wait(100);
        begun = await slots.begin(turn, op.slot);
      }
      const held = begun.kind === 'go';
      let posted: MessageRef | null = null;
      if (begun.kind === 'go' && text && text.trim() !== '' && (op.last || Date.now() >= pause.until)) {
        const paceKey = livePaceKey(opts.prefix, adapter.key, entry.to.chat);
        await paced(paceKey, op.gap);
        posted = await deliver(op, entry, begun.ref, text);
        // Counted from the platform's answer, so two shows reach the platform at least `gap` apart.
        if (op.gap > 0) await opts.redis.set(paceKey, '1', 'PX', op.gap);
      }
      await slots.end(turn, op.slot, posted, op.n, held);
    },

    async replacePreview(roots, entry, firstChunk) {
      // Each run's preview is taken (marked final: no late op of a dead run touches it again). The newest becomes
      // the answer; the others, left by runs that died or were handed back mid-turn, would be stale copies.
      const previews: MessageRef[] = [];
      for (const root of roots) {
        const ref = await slots.takePreview({ root, to: entry.to }, signal).catch(() => null);
        if (ref) previews.push(ref);
      }
      const ref = previews.pop();
      let replaced = false;
      for (let attempt = 1; ref && attempt <= opts.maxAttempts && !signal.aborted; attempt++) {
        if (Date.now() < pause.until) await wait(pause.until - Date.now());
        try {
          await adapter.edit(ref, { text: firstChunk });
          replaced = true;
          break;
        } catch (err) {
          if (rateLimited(err)) continue;
          logger.warn(
            { channel: adapter.key, entry_id: entry.id, err: errorMessage(err) },
            'the preview could not become the answer; sending the answer as new messages',
          );
          previews.push(ref);
          break;
        }
      }
      // Stopping before the edit: whoever takes the entry over does all of it.
      if (!replaced && signal.aborted) return false;
      for (const stale of previews) {
        await adapter
          .delete?.(stale)
          .catch((err: unknown) =>
            logger.debug({ channel: adapter.key, err: errorMessage(err) }, 'preview not deleted'),
          );
      }
      return replaced;
    },
  };
}
