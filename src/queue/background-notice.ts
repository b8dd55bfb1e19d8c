// live.md §4: when a background task started from a chat ends, that chat gets one notice (the parent agent is
// not run). Sent by whichever process settled the task, once per task id (the outbox's idempotency key), to the
// conversation the task belongs to; none for cron or CLI tasks, or where the channel turned notices off.
import type { Redis } from 'ioredis';
import { conversationRecipient } from '../channel-host/types.ts';
import { channelOf } from '../config/lookup.ts';
import type { BatonConfig } from '../config/types.ts';
import type { KeySpace } from '../core/key-layout.ts';
import { elapsedSecs } from '../delegation/task-list.ts';
import type { TaskRecord } from '../delegation/task-records.ts';
import { backgroundNoticeText } from '../live/live-messages.ts';
import { enqueueOutboxEntry } from './reply-outbox.ts';

export async function sendBackgroundNotice(
  deps: { redis: Redis; space: KeySpace; config: BatonConfig; redact: (text: string) => string },
  rec: TaskRecord,
): Promise<boolean> {
  if (rec.status === 'running' || !rec.scope) return false;
  const to = conversationRecipient(rec.scope);
  if (!to) return false;
  const channel = channelOf(deps.config, to.channel);
  if (!channel || channel.background_notices === false) return false;
  // Whole seconds, as /status and the task list count them.
  const secs = elapsedSecs(rec.started_at, rec.finished_at, Date.now());
  const text = backgroundNoticeText(rec.task_id, rec.agent, rec.status, secs * 1000);
  await enqueueOutboxEntry(
    deps.redis,
    deps.space,
    { to, text: deps.redact(text) },
    `bg-notice:${rec.task_id}`,
  );
  return true;
}
