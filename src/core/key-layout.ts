// Where keys live (spec/config.md §15.1.1). On a Redis Cluster every script and multi-key command must touch
// one hash slot, so keys that change together share a hash tag: the part between the first `{` and `}`.
// The same layout is used on one Redis, on Sentinel and on a Cluster, so every test exercises it.
import clusterKeySlot from 'cluster-key-slot';

/** The prefix and the partition count of a deployment ([redis] prefix, [redis] partitions). */
export interface KeySpace {
  readonly prefix: string;
  readonly partitions: number;
}

/** A tag shared by one subsystem's keys (a global limit, the approvals, the cost ledger…): `{<prefix>:<name>}`. */
export const globalTag = (prefix: string, name: string): string => `{${prefix}:${name}}`;

/** The tag of partition `n`; also the BullMQ prefix of that partition's queues, so a queue sits in one slot. */
export const partitionTag = (prefix: string, n: number): string => `{${prefix}:p${n}}`;

/** The tag of one tree of runs (its root's id): its budget and live messages (its run events sit in a partition). */
export const rootTag = (prefix: string, root: string): string => `{${prefix}:r:${root}}`;

/**
 * The partition of a conversation: 32-bit FNV-1a of its key, modulo the count. Stable across processes,
 * releases and Node versions, so one conversation's turns always meet on one queue.
 */
export function partitionOf(conversation: string, partitions: number): number {
  if (partitions <= 1) return 0;
  let h = 0x811c9dc5;
  const bytes = Buffer.from(conversation, 'utf8');
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % partitions;
}

/** The tag of the partition a conversation belongs to. */
export const conversationTag = (space: KeySpace, conversation: string): string =>
  partitionTag(space.prefix, partitionOf(conversation, space.partitions));

/** Every partition number of a key space, for loops that visit them all (sweepers, gateways, the dashboard). */
export const allPartitions = (space: KeySpace): number[] =>
  Array.from({ length: space.partitions }, (_, i) => i);

/** The hash slot of every key must be the same: a script or multi-key command elsewhere fails on a Cluster. */
export class CrossSlotError extends Error {
  override readonly name = 'CrossSlotError';
}

/** Throws CrossSlotError naming the site and the keys when `keys` span more than one hash slot. */
export function assertOneSlot(site: string, keys: readonly string[]): void {
  if (keys.length < 2) return;
  // Checked on every script call: keys that share their hashed part share the slot, no CRC needed.
  const part = hashedPart(keys[0] as string);
  if (keys.every((k) => hashedPart(k) === part)) return;
  const first = slotOf(keys[0] as string);
  if (keys.every((k) => slotOf(k) === first)) return;
  throw new CrossSlotError(
    `${site}: keys in more than one hash slot: ${keys.map((k) => `${k} (${slotOf(k)})`).join(', ')}`,
  );
}

/** What Redis hashes: the text of the first `{…}` with something in it, else the whole key. */
function hashedPart(key: string): string {
  const open = key.indexOf('{');
  if (open !== -1) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) return key.slice(open + 1, close);
  }
  return key;
}

// A run-events flush takes the slot of every tree's keys, and their tags are few (one per partition), while
// cluster-key-slot allocates a byte array per call: a tag's slot is computed once (bounded: tags may be many).
const tagSlots = new Map<string, number>();
const MAX_CACHED_TAGS = 4096;

/** The Cluster hash slot of a key (CRC16 of its tag, or of the whole key without one), as Redis computes it. */
export function slotOf(key: string): number {
  const part = hashedPart(key);
  if (part === key) return clusterKeySlot(key);
  let slot = tagSlots.get(part);
  if (slot === undefined) {
    if (tagSlots.size >= MAX_CACHED_TAGS) tagSlots.clear();
    // The tag alone hashes as the key does: it holds no `}`, and a `{` in it has no `}` after it.
    slot = clusterKeySlot(part);
    tagSlots.set(part, slot);
  }
  return slot;
}
