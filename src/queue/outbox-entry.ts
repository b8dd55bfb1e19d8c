// The outbox entry, in one place: what a reply or an approval card request looks like on a channel's outbox
// stream. Lua writes it through outbox-entry.fragment.lua from the ARGV block built here; the gateway parses it
// back here. Nothing else knows the field names.
import { z } from 'zod';
import { type Recipient, type ReplyOrder, recipientSchema } from '../channel-host/types.ts';
import type { OutboxFile } from '../media/attachment.ts';
import { type QueuedFile, queuedFileSchema } from './turn-files.ts';

/** An approval card to post or edit (approvals.md §10, §12): the gateway loads the record and renders it. */
export interface ApprovalCardRequest {
  op: 'post' | 'edit';
  approvalId: string;
}

const approvalRequestSchema = z.object({ op: z.enum(['post', 'edit']), approvalId: z.uuid() });

/**
 * One show of a turn's live message (live.md §2, §3): post it the first time, edit it after. `n` numbers the
 * turn's ops (the worker queues op n only once op n-1 was handled: edits are skipped, never queued up); `last`
 * ops (the progress summary) are never skipped.
 */
export interface LiveOp {
  root: string;
  slot: LiveSlot;
  n: number;
  last: boolean;
  /** The chat's `stream_edit_interval_ms`: the least time from one live op's platform answer to the next op. */
  gap: number;
}
export type LiveSlot = 'preview' | 'progress';

const liveOpSchema = z.object({
  root: z.uuid(),
  slot: z.enum(['preview', 'progress']),
  n: z.number().int().positive(),
  last: z.boolean(),
  gap: z.number().int().nonnegative(),
});

export interface OutboxEntry {
  id: string;
  /** Set for an approval card request (no text; outside any conversation's order). */
  approval?: ApprovalCardRequest;
  /** Set for a live message show (outside any conversation's order). */
  live?: LiveOp;
  /**
   * A turn's answer replaces the preview messages of these root runs, if they posted any (live.md §2 step 3): every
   * run of the turn that showed live messages (a turn handed to another worker runs again), the answering run last.
   */
  finishes?: string[];
  to: Recipient;
  text: string;
  /** Files sent with a reply, after its text (send_file, media.md §2); their bytes wait in blobs. */
  files?: QueuedFile[];
  /** Set for a conversation's replies, which leave in `seq` order. */
  order?: { conversation: string; seq: number };
  /** Taken over from a consumer that stopped answering: it may have sent part of it. */
  reclaimed: boolean;
  /** The partition whose outbox stream holds it (stream ids are unique only within one stream). */
  partition: number;
  /**
   * Not a reply this version can read: why. It is dropped (and logged) in its conversation's turn when
   * `order` could still be read, at once without touching any mark otherwise.
   */
  malformed?: string;
}

/** What a producer queues: a reply (with its place in a conversation, if any) or a card request. */
export type NewOutboxEntry =
  | { to: Recipient; text: string; order?: ReplyOrder; finishes?: string[]; files?: OutboxFile[] }
  | { to: Recipient; approval: ApprovalCardRequest }
  | { to: Recipient; text: string; live: LiveOp };

/**
 * The fragment's ARGV block, in its order: to, text, conv, seq, tag. The tag is '' or `<field>:<JSON>`, the one
 * field that says what else the entry is (`approval`, `live`, `finishes`).
 */
export function outboxEntryArgs(entry: NewOutboxEntry): (string | number)[] {
  const to = JSON.stringify(entry.to);
  if ('approval' in entry) return [to, '', '', '', `approval:${JSON.stringify(entry.approval)}`];
  if ('live' in entry) return [to, entry.text, '', '', `live:${JSON.stringify(entry.live)}`];
  // Producers in JS queue either (a turn's answer with both is written by the settle script).
  const tag = entry.finishes
    ? `finishes:${JSON.stringify(entry.finishes)}`
    : entry.files?.length
      ? `files:${JSON.stringify(entry.files)}`
      : '';
  return [to, entry.text, entry.order?.conversation ?? '', entry.order?.seq ?? '', tag];
}

/** The fields every entry has; `conv`/`seq` are both '' for a reply outside a conversation. */
const fieldsSchema = z.object({
  to: z.string(),
  text: z.string(),
  conv: z.string(),
  seq: z.string(),
});
const SEQ = /^[1-9][0-9]{0,14}$/;

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** A conversation and sequence read on their own, so even an otherwise unreadable entry takes its turn. */
function orderOf(f: Record<string, string>): OutboxEntry['order'] | 'none' | 'unreadable' {
  if (f.conv === '' && f.seq === '') return 'none';
  if (!f.conv || f.seq === undefined || !SEQ.test(f.seq)) return 'unreadable';
  return { conversation: f.conv, seq: Number(f.seq) };
}

/** A stream entry as XREADGROUP / XAUTOCLAIM return it (null for an entry deleted meanwhile). */
export type RawOutboxEntry = [id: string, fields: string[]] | null;

/** Never throws: an entry this version cannot read comes back `malformed`, with its order when readable. */
export function parseOutboxEntry(raw: RawOutboxEntry, reclaimed: boolean, partition = 0): OutboxEntry | null {
  if (!raw) return null;
  const [id, fields] = raw;
  const f: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i]!] = fields[i + 1]!;
  const order = orderOf(f);
  const ordered = typeof order === 'object' ? { order } : {};
  const malformed = (reason: string): OutboxEntry => ({
    id,
    to: { channel: '?', chat: '?' },
    text: '',
    ...ordered,
    reclaimed,
    partition,
    malformed: reason,
  });
  const shape = fieldsSchema.safeParse(f);
  if (!shape.success) return malformed(`missing field ${String(shape.error.issues[0]?.path[0] ?? '?')}`);
  if (order === 'unreadable') return malformed('bad conv/seq');
  const to = recipientSchema.safeParse(safeJson(shape.data.to));
  if (!to.success) return malformed('bad recipient');
  if (f.approval !== undefined) {
    const approval = approvalRequestSchema.safeParse(safeJson(f.approval));
    if (!approval.success) return malformed('bad approval request');
    return { id, to: to.data, text: '', approval: approval.data, reclaimed, partition };
  }
  if (f.live !== undefined) {
    const live = liveOpSchema.safeParse(safeJson(f.live));
    if (!live.success) return malformed('bad live op');
    return { id, to: to.data, text: shape.data.text, live: live.data, reclaimed, partition };
  }
  let finishes: string[] | undefined;
  if (f.finishes !== undefined) {
    // One root (as queued before a turn could name several) or a list; oldest first, the answering run last.
    const roots = z
      .union([z.uuid().transform((r) => [r]), z.array(z.uuid()).min(1)])
      .safeParse(safeJson(f.finishes));
    // The answer still goes out (as new messages) when only its preview link is unreadable.
    if (roots.success) finishes = roots.data;
  }
  let files: QueuedFile[] | undefined;
  if (f.files !== undefined) {
    const parsed = z.array(queuedFileSchema).max(50).safeParse(safeJson(f.files));
    // The answer still goes out when its file list is unreadable: the sender says the files could not be sent.
    files = parsed.success ? parsed.data : [];
  }
  return {
    id,
    to: to.data,
    text: shape.data.text,
    ...ordered,
    ...(finishes ? { finishes } : {}),
    ...(files ? { files } : {}),
    reclaimed,
    partition,
  };
}
