// Where send_file puts a file (media.md §2): with the answer of the turn the run belongs to, on the outbox of
// the chat the turn came from, so it leaves in the conversation's order, once, and is retried like a reply.

import type { Recipient } from '../channel-host/types.ts';
import type { OutboundFile } from '../media/attachment.ts';

export interface TurnFiles {
  /** The chat the files go to (the turn's origin, or a cron job's delivery chat). */
  readonly to: Recipient;
  /** The least of the platform's upload limit and the channel's `max_attachment_mb`, in bytes. */
  readonly limitBytes: number;
  /** Stores the bytes and lists the file for the answer; resolves once both are in Redis. */
  queue(file: OutboundFile): Promise<void>;
}
