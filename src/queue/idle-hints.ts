// Conversations this process's turn worker last saw go idle: their drain job settled its last event and found
// nothing left to do (noted as the job finishes, so a prompt next message can use it). A gateway in the same
// process (`baton start`) sends the next message's drain job right behind its ingest, on the same connection,
// instead of after the ingest's reply: one Redis round trip less before a turn starts (roles/turn-ingest.ts).
// A hint can be stale (another process took a message since, or the job has not been removed yet): the early
// kick then meets the conversation's job and is dropped as a duplicate (the ingest's owed-kick mark brings the
// message its turn), or finds an inbox with nothing to begin.

/** Hints kept at most; the oldest go first (a stale or lost hint only costs the round trip it saves). */
export const MAX_IDLE_HINTS = 10_000;

export interface IdleHints {
  /** The worker found the conversation idle (its drain job done, nothing due). */
  noteIdle(conversation: string): void;
  /** True once per note: the conversation was last seen idle, so its next message may kick at once. */
  takeIdle(conversation: string): boolean;
}

export function createIdleHints(max = MAX_IDLE_HINTS): IdleHints {
  const idle = new Set<string>();
  return {
    noteIdle(conversation) {
      idle.delete(conversation); // re-insert: a Set iterates in insertion order, oldest first
      idle.add(conversation);
      if (idle.size > max) idle.delete(idle.values().next().value as string);
    },
    takeIdle(conversation) {
      return idle.delete(conversation);
    },
  };
}
