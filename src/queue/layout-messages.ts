// What an operator reads when the key layout in Redis does not match `[redis] partitions` (spec/config.md §15.1).

/** The work found in a layout's queues, for the refusal text. */
export interface LayoutWork {
  /** Turn jobs waiting, delayed or running in the turns queues. */
  turns: number;
  /** Conversations with events in their inboxes. */
  conversations: number;
  /** Outbox entries (replies, cards, live ops) not yet sent. */
  replies: number;
}

export const workText = (w: LayoutWork): string =>
  `turn jobs queued or running: ${w.turns}, conversations with waiting messages: ${w.conversations}, ` +
  `replies not yet sent: ${w.replies}`;

const DRAIN = 'until /healthz shows every queue empty (no turn waiting or running, no reply waiting)';

export const partitionsChangedWithWork = (
  prefix: string,
  configured: number,
  recorded: number,
  w: LayoutWork,
) =>
  `redis.partitions is ${configured} in the config, but Redis prefix "${prefix}" was last run with ` +
  `redis.partitions = ${recorded} and its queues still hold work (${workText(w)}). Drain first: run the fleet ` +
  `with redis.partitions = ${recorded} ${DRAIN}, stop every process, then start with redis.partitions = ${configured}.`;

/** `other`: the release's non-conversation keys that still hold work (legacy-global-work.ts), as `<key> (<n>)`. */
export const legacyLayoutWithWork = (prefix: string, configured: number, w: LayoutWork, other: string[]) =>
  `redis.partitions is ${configured} in the config, but Redis prefix "${prefix}" holds work in the key layout of ` +
  `a release before partitions (recorded: none; that layout is one partition, untagged keys): ${workText(w)}` +
  `${other.length ? `; also ${other.join(', ')}` : ''}. ` +
  `Drain it with that release first: run it ${DRAIN}, stop every process, then start this release.`;

export const unreadableLayoutRecord = (key: string, raw: string) =>
  `the key layout record ${key} cannot be read (partitions = ${JSON.stringify(raw.slice(0, 40))}); ` +
  `redis.partitions cannot be checked against it. Delete the key once no turn is queued and no reply waits.`;

export const layoutRecordRewritten =
  'redis.partitions changed and the old partitions hold no work: record rewritten';
export const layoutRecordWritten = 'key layout recorded';
