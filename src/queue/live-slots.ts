// The gateway's side of a turn's live messages: which message each slot shows, who is editing it now, and the
// hand-over of the preview to the turn's answer (live.md §2 step 3). Shared by every gateway of the channel: an
// op and the answer may be sent by two different gateways, so the state and the busy marks live in Redis.
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { MessageRef, Recipient } from '../channel-host/types.ts';
import type { KeySpace } from '../core/key-layout.ts';
import type { Logger } from '../core/logger.ts';
import { parseRecord } from '../core/redis-record.ts';
import { loadRedisScript } from '../core/redis-script.ts';
import { liveKeys, recipientConversation } from './names.ts';
import type { LiveSlot } from './outbox-entry.ts';

const beginScript = loadRedisScript(join(import.meta.dirname, 'lua', 'live-begin-2.lua'));
const endScript = loadRedisScript(join(import.meta.dirname, 'lua', 'live-end-2.lua'));

/** A turn's live state outlives the turn long enough for a late answer or summary. */
export const LIVE_STATE_TTL_SECS = 60 * 60;
/** An op's busy mark: longer than one platform call, so a crashed op frees its slot on its own. */
const BUSY_MS = 15_000;
const BUSY_POLL_MS = 50;

const messageRefSchema = z.object({ channel: z.string(), chat: z.string(), messageId: z.string().min(1) });

export type LiveBegin = { kind: 'skip' } | { kind: 'busy' } | { kind: 'go'; ref: MessageRef | null };

/** A turn's live messages: its root run, in the chat `to` (whose conversation's tag holds the state). */
export interface LiveTurn {
  root: string;
  to: Recipient;
}

export interface LiveSlots {
  begin(turn: LiveTurn, slot: LiveSlot): Promise<LiveBegin>;
  /** `ref`: the message the op posted (null: unchanged); op `n` counts as handled; `held`: it had the slot. */
  end(turn: LiveTurn, slot: LiveSlot, ref: MessageRef | null, n: number, held: boolean): Promise<void>;
  /** Marks the preview final and returns it once no op is editing it (null: there is none). */
  takePreview(turn: LiveTurn, signal: AbortSignal): Promise<MessageRef | null>;
}

export function createLiveSlots(redis: Redis, space: KeySpace, logger: Pick<Logger, 'warn'>): LiveSlots {
  const keysOf = (turn: LiveTurn) => liveKeys(space, recipientConversation(turn.to), turn.root);
  const refOf = (turn: LiveTurn, raw: string): MessageRef | null => {
    if (raw === '') return null;
    const key = keysOf(turn).state;
    return parseRecord(messageRefSchema, raw, { logger, key, what: 'live message ref' }) ?? null;
  };
  const call = async (turn: LiveTurn, slot: LiveSlot, mode: 'op' | 'final') => {
    const k = keysOf(turn);
    return (await beginScript(redis, [k.state, k.busy(slot)], [slot, mode, BUSY_MS, LIVE_STATE_TTL_SECS])) as
      | [string]
      | [string, string];
  };
  return {
    async begin(turn, slot) {
      const [kind, raw] = await call(turn, slot, 'op');
      if (kind === 'skip' || kind === 'busy') return { kind };
      return { kind: 'go', ref: refOf(turn, raw ?? '') };
    },
    async end(turn, slot, ref, n, held) {
      const k = keysOf(turn);
      const args = [slot, ref ? JSON.stringify(ref) : '', n, LIVE_STATE_TTL_SECS, held ? '1' : '0'];
      await endScript(redis, [k.state, k.busy(slot)], args);
    },
    async takePreview(turn, signal) {
      for (;;) {
        const [kind, raw] = await call(turn, 'preview', 'final');
        if (kind === 'go') return refOf(turn, raw ?? '');
        // An edit of the preview is under way (here or on another gateway): the answer's edit goes after it.
        await sleep(BUSY_POLL_MS, undefined, { signal });
      }
    },
  };
}
