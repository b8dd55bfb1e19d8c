// Approval cards on the gateway (approvals.md §10, §12): posting a pending approval's card on the channel it
// names (with the text-mode fallback), and editing it to its outcome with the buttons removed.
import type { ApprovalStore } from '../approval/approval-store.ts';
import type { ButtonPlatform } from '../approval/button-ids.ts';
import {
  type ApprovalCard,
  type CardOutcome,
  type CardPlatform,
  renderApprovalCard,
  renderDecidedCard,
} from '../approval/card.ts';
import type { ApprovalRecord } from '../approval/record.ts';
import type { ChannelAdapter, Recipient } from '../channel/types.ts';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import type { ApprovalCardHandler } from '../queue/reply-pump.ts';

/**
 * The button dialect of a channel: its platform's, and Telegram's for channels with no platform of their own
 * (the local channel), whose buttons carry their id as given.
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
  const who = by ?? rec.decided_by?.user ?? '?';
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

  async function post(adapter: ChannelAdapter, rec: ApprovalRecord, to: Recipient): Promise<void> {
    const platform: CardPlatform = buttonPlatformOf(adapter.key);
    const card = cardOf(rec);
    const id = rec.approval_id;
    let sent = null;
    try {
      sent = await adapter.send(to, renderApprovalCard(platform, card));
    } catch (err) {
      logger.warn(
        { channel: adapter.key, approval_id: id, err: errorMessage(err) },
        'approval card not posted',
      );
      // Telegram already retried as plain text with the same buttons (§12.2); the others fall back to text mode.
      if (adapter.key.startsWith('telegram.')) sent = null;
      else
        sent = await adapter.send(to, renderApprovalCard('text', card)).catch((e: unknown) => {
          logger.warn(
            { channel: adapter.key, approval_id: id, err: errorMessage(e) },
            'approval text prompt not posted',
          );
          return null;
        });
    }
    if (!sent) {
      logger.error({ channel: adapter.key, approval_id: id }, 'approval undeliverable');
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
      // A card for an approval already settled (cancelled before it left) is not posted at all.
      if (req.op === 'post') return rec.status === 'pending' ? post(adapter, rec, to) : undefined;
      if (rec.status !== 'pending') await showOutcome(adapter, rec);
    },
  };
}
