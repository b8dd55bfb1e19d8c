// Approval cards on the gateway (approvals.md §10, §12): the reply pump's handler for card requests. It posts a
// pending approval's card on the channel it names (with the text-mode fallback) and edits a settled one to its
// outcome with the buttons removed, always rendering from the record and in the channel's dialect.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApprovalStore } from '../approval/approval-store.ts';
import { cardOf, outcomeOf, renderApprovalCard, renderDecidedCard } from '../approval/card.ts';
import type { ApprovalRecord } from '../approval/record.ts';
import type { DialectOf } from '../channel-host/dialect.ts';
import {
  type ChannelAdapter,
  ChannelRateLimitError,
  type MessageRef,
  type OutboundMessage,
  type Recipient,
} from '../channel-host/types.ts';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import type { ApprovalCardHandler } from '../queue/reply-pump.ts';

export interface ApprovalCardsOptions {
  store: Pick<ApprovalStore, 'get' | 'setMessageRef' | 'markUndeliverable'>;
  dialectOf: DialectOf;
  logger: Pick<Logger, 'warn' | 'error'>;
}

export function createApprovalCards(opts: ApprovalCardsOptions): ApprovalCardHandler {
  const { store, logger } = opts;

  /** One send; a rate limit is waited out while the approval can still be answered (then it is a failure). */
  async function sendCard(adapter: ChannelAdapter, to: Recipient, msg: OutboundMessage, expiresAt: number) {
    for (;;) {
      try {
        return await adapter.send(to, msg);
      } catch (err) {
        if (!(err instanceof ChannelRateLimitError) || Date.now() + err.retryAfterMs >= expiresAt) throw err;
        await sleep(err.retryAfterMs);
      }
    }
  }

  async function post(adapter: ChannelAdapter, rec: ApprovalRecord, to: Recipient): Promise<void> {
    const dialect = opts.dialectOf(adapter.key);
    const card = cardOf(rec);
    const id = rec.approval_id;
    let sent: MessageRef | null = null;
    try {
      sent = await sendCard(adapter, to, renderApprovalCard(dialect, card), rec.expires_at);
    } catch (err) {
      const reason = dialect.describeSendError(err, 'approval');
      if (!dialect.textModeFallback) {
        logger.error({ channel: adapter.key, approval_id: id }, reason);
      } else {
        logger.warn({ channel: adapter.key, approval_id: id, err: reason }, 'approval card not posted');
        // Buttons refused (e.g. missing permissions): the prompt once more in text mode (§12.3, §12.4).
        sent = await sendCard(adapter, to, renderApprovalCard('text', card), rec.expires_at).catch(
          (e: unknown) => {
            logger.error(
              { channel: adapter.key, approval_id: id, err: errorMessage(e) },
              'approval text prompt not posted',
            );
            return null;
          },
        );
      }
    }
    if (!sent) {
      await store.markUndeliverable(id);
      return;
    }
    await store.setMessageRef(id, { chat: sent.chat, messageId: sent.messageId });
  }

  async function showOutcome(adapter: ChannelAdapter, rec: ApprovalRecord): Promise<void> {
    const outcome = outcomeOf(rec);
    if (!outcome || !rec.message_ref) return;
    const ref = { channel: adapter.key, ...rec.message_ref };
    await adapter
      .edit(ref, renderDecidedCard(opts.dialectOf(adapter.key), cardOf(rec), outcome))
      .catch((err: unknown) =>
        logger.warn({ approval_id: rec.approval_id, err: errorMessage(err) }, 'approval card edit failed'),
      );
  }

  return {
    async handle(req, to, adapter) {
      const rec = await store.get(req.approvalId);
      if (!rec) return;
      // A card for an approval already settled (cancelled before it left) is not posted at all, and a request
      // taken over from a gateway that died after posting is not posted twice.
      if (req.op === 'post')
        return rec.status === 'pending' && !rec.message_ref ? post(adapter, rec, to) : undefined;
      if (rec.status !== 'pending') await showOutcome(adapter, rec);
    },
  };
}
