// Approval cards on the gateway (approvals.md §10, §12): posting a pending approval's card on the channel it
// names (with the text-mode fallback), and editing it to its outcome with the buttons removed.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApprovalStore } from '../approval/approval-store.ts';
import type { ButtonPlatform } from '../approval/button-ids.ts';
import {
  type ApprovalCard,
  type CardOutcome,
  type CardPlatform,
  renderApprovalCard,
  renderDecidedCard,
} from '../approval/card.ts';
import { operatorLabel } from '../approval/operator-label.ts';
import type { ApprovalRecord } from '../approval/record.ts';
import {
  type ChannelAdapter,
  ChannelRateLimitError,
  type MessageRef,
  type OutboundMessage,
  type Recipient,
} from '../channel/types.ts';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import type { ApprovalCardHandler } from '../queue/reply-pump.ts';

/**
 * The button dialect of a channel: its platform's, and Telegram's for channels with no platform of their own
 * (the local channel, the web chat), whose buttons carry their id as given; the web chat shows the card's plain
 * text (it has markup of another platform) with the buttons under it.
 */
export function buttonPlatformOf(channelKey: string): ButtonPlatform {
  const type = channelKey.split('.')[0];
  return type === 'discord' || type === 'slack' ? type : 'telegram';
}

export function cardOf(rec: ApprovalRecord): ApprovalCard {
  return {
    approvalId: rec.approval_id,
    replyToken: rec.reply_token,
    tool: rec.tool,
    argsSummary: rec.args_summary,
    ...(rec.route_prompt
      ? { agent: { name: rec.agent, ...(rec.caller ? { caller: rec.caller } : {}) } }
      : {}),
    group: rec.group,
  };
}

/** What the card shows once the record left `pending`; null for an undeliverable one (nothing was posted). */
export function outcomeOf(rec: ApprovalRecord, by?: string): CardOutcome | null {
  const who = by ?? (rec.decided_by ? operatorLabel(rec.decided_by) : '?');
  switch (rec.status) {
    case 'approved':
      return { kind: 'approved', by: who };
    case 'always':
      return { kind: 'always', by: who };
    case 'denied':
      return { kind: 'denied', by: who };
    case 'expired':
      return { kind: 'expired' };
    case 'cancelled':
      return { kind: 'cancelled' };
    default:
      return null;
  }
}

export interface ApprovalCardsOptions {
  store: Pick<ApprovalStore, 'get' | 'setMessageRef' | 'markUndeliverable'>;
  logger: Pick<Logger, 'warn' | 'error'>;
}

export interface ApprovalCards extends ApprovalCardHandler {
  /** Edits a settled record's card to its outcome (no buttons); `by` names the operator where known. */
  showOutcome(adapter: ChannelAdapter, rec: ApprovalRecord, by?: string): Promise<void>;
}

export function createApprovalCards(opts: ApprovalCardsOptions): ApprovalCards {
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
    const platform: CardPlatform = buttonPlatformOf(adapter.key);
    const card = cardOf(rec);
    const id = rec.approval_id;
    const telegram = adapter.key.startsWith('telegram.');
    let sent: MessageRef | null = null;
    try {
      sent = await sendCard(adapter, to, renderApprovalCard(platform, card), rec.expires_at);
    } catch (err) {
      if (telegram) {
        // Telegram already retried as plain text with the same buttons (§12.2): nothing else to try.
        const e = err as { error_code?: unknown; description?: unknown };
        logger.error(
          { channel: adapter.key, approval_id: id },
          `Telegram sendMessage (approval) failed (${String(e.error_code ?? '?')}): ${String(e.description ?? errorMessage(err))}`,
        );
      } else {
        logger.warn(
          { channel: adapter.key, approval_id: id, err: errorMessage(err) },
          'approval card not posted',
        );
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

  async function showOutcome(adapter: ChannelAdapter, rec: ApprovalRecord, by?: string): Promise<void> {
    const outcome = outcomeOf(rec, by);
    if (!outcome || !rec.message_ref) return;
    const ref = { channel: adapter.key, ...rec.message_ref };
    await adapter
      .edit(ref, renderDecidedCard(buttonPlatformOf(adapter.key), cardOf(rec), outcome))
      .catch((err: unknown) =>
        logger.warn({ approval_id: rec.approval_id, err: errorMessage(err) }, 'approval card edit failed'),
      );
  }

  return {
    showOutcome,
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
