// The sending side of a channel's reply pump: one entry's chunks to the platform, paced per chat, honouring
// retry_after, retried with backoff, resumable after a crash (progress saved per chunk).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { chunkMarkdown } from '../channel-host/markdown/chunk.ts';
import { type ChannelAdapter, ChannelRateLimitError } from '../channel-host/types.ts';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import type { MetricsStore } from '../fleet/metrics-store.ts';
import { sendQueuedFile } from './file-sender.ts';
import { type ChannelPause, createLiveSender } from './live-sender.ts';
import type { LiveSlots } from './live-slots.ts';
import { paceKey } from './names.ts';
import type { LiveOp, OutboxEntry } from './outbox-entry.ts';
import type { OutboxStream } from './outbox-stream.ts';

const SEND_CONCURRENCY = 16;

export interface ReplySenderOptions {
  adapter: ChannelAdapter;
  redis: Redis;
  prefix: string;
  logger: Logger;
  stream: Pick<OutboxStream, 'progress' | 'saveProgress'>;
  /** `reply_min_interval_secs` of the channel, in ms. */
  minIntervalMs: number;
  maxAttempts: number;
  backoffMs: number;
  metrics?: Pick<MetricsStore, 'countOutbox'> | undefined;
  redact?: ((text: string) => string) | undefined;
  /** Aborted when the pump stops: a send in progress gives up between chunks, leaving the entry queued. */
  signal: AbortSignal;
  /** The turns' live messages (live.md §2, §3). */
  slots: LiveSlots;
}

export interface ReplySender {
  /** Sends every chunk not yet sent; `done: false` when stopping (the entry stays queued). */
  send(entry: OutboxEntry): Promise<{ done: boolean; progressSaved: boolean }>;
  /** Shows one live op (never throws for a platform failure). */
  show(entry: OutboxEntry & { live: LiveOp }): Promise<void>;
}

/** Waits until this chat may receive another message, then claims the slot (one Redis SET NX PX per try). */
async function pace(redis: Redis, key: string, intervalMs: number, signal: AbortSignal): Promise<void> {
  if (intervalMs <= 0) return;
  while (!signal.aborted) {
    if ((await redis.set(key, '1', 'PX', intervalMs, 'NX')) === 'OK') return;
    const ttl = await redis.pttl(key);
    await sleep(Math.max(ttl, 10), undefined, { signal }).catch(() => {});
  }
}

function createSemaphore(limit: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (active >= limit) await new Promise<void>((r) => waiting.push(r));
    active++;
    try {
      return await fn();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

export function createReplySender(opts: ReplySenderOptions): ReplySender {
  const { adapter, logger, redis, signal } = opts;
  const limit = createSemaphore(SEND_CONCURRENCY);
  const pause = (ms: number) => sleep(ms, undefined, { signal }).catch(() => {});
  /** A platform's retry_after holds every send of the channel, not just the chat that got it. */
  const paused: ChannelPause = { until: 0 };
  const live = createLiveSender({ ...opts, pause: paused });

  return {
    show: (entry) => live.show(entry),
    async send(entry) {
      // Redacted before chunking, so a secret cannot straddle two chunks; deterministic, so resumes line up.
      const chunks = chunkMarkdown(
        opts.redact ? opts.redact(entry.text) : entry.text,
        adapter.maxMessageLength,
      );
      const slot = paceKey(opts.prefix, adapter.key, entry.to.chat);
      // The files send_file queued leave after the answer's text, as parts of the same entry (media.md §2).
      const files = entry.files ?? [];
      if (entry.files && files.length === 0) {
        logger.warn(
          { channel: adapter.key, entry_id: entry.id },
          'reply file list unreadable; files not sent',
        );
      }
      const parts = chunks.length + files.length;
      let sent = await opts.stream.progress(entry);
      let attempts = 0;
      let progressSaved = false;
      // The preview becomes the answer's first chunk (live.md §2 step 3); a resumed entry did that already.
      if (
        sent === 0 &&
        entry.finishes &&
        (await live.replacePreview(entry.finishes, entry, chunks[0] ?? ''))
      ) {
        opts.metrics?.countOutbox(adapter.key, 'sent');
        sent = 1;
        if (sent < parts) {
          await opts.stream.saveProgress(entry, sent);
          progressSaved = true;
        }
      }
      while (sent < parts) {
        if (signal.aborted) return { done: false, progressSaved };
        if (Date.now() < paused.until) {
          await pause(paused.until - Date.now());
          continue;
        }
        await pace(redis, slot, opts.minIntervalMs, signal);
        try {
          const part = sent;
          if (part < chunks.length) await limit(() => adapter.send(entry.to, { text: chunks[part]! }));
          else {
            const file = files[part - chunks.length]!;
            // The caption is model text leaving baton: redacted like every reply.
            const captioned =
              file.caption && opts.redact ? { ...file, caption: opts.redact(file.caption) } : file;
            const res = await limit(() => sendQueuedFile(adapter, redis, entry.to, captioned));
            if (res.kind === 'notice') {
              logger.warn({ channel: adapter.key, entry_id: entry.id, file: file.name }, res.text);
              await limit(() => adapter.send(entry.to, { text: res.text }));
            }
          }
          opts.metrics?.countOutbox(adapter.key, 'sent');
          sent++;
          // Resumable: whoever retries this entry after a crash sends only the parts not yet sent.
          if (sent < parts) {
            await opts.stream.saveProgress(entry, sent);
            progressSaved = true;
          }
        } catch (err) {
          if (err instanceof ChannelRateLimitError) {
            opts.metrics?.countOutbox(adapter.key, 'rate_limited');
            logger.warn(
              { channel: adapter.key, retry_after_ms: err.retryAfterMs },
              'channel rate limited; pausing sends',
            );
            paused.until = Math.max(paused.until, Date.now() + err.retryAfterMs);
            continue;
          }
          attempts++;
          opts.metrics?.countOutbox(adapter.key, 'failed');
          logger.warn(
            { channel: adapter.key, entry_id: entry.id, err: errorMessage(err) },
            'outbox send failed',
          );
          if (attempts >= opts.maxAttempts) {
            // Given up: the conversation's later replies leave rather than wait forever.
            opts.metrics?.countOutbox(adapter.key, 'dropped');
            logger.error(
              { channel: adapter.key, entry_id: entry.id },
              'reply dropped after its last attempt',
            );
            break;
          }
          await pause(opts.backoffMs * 2 ** (attempts - 1));
        }
      }
      // Sent (or given up): the bytes are no longer needed; their TTL frees them if this never runs.
      // One UNLINK per blob: each blob key is its own hash slot (spec/config.md §15.1.1).
      await Promise.all(files.map((f) => redis.unlink(f.blob).catch(() => 0)));
      return { done: true, progressSaved };
    },
  };
}
