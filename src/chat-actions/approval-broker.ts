// The approvals broker on the gateway (approvals.md §10-§12): button presses and token replies become decisions
// (§11 checks, one CAS), the presser gets the ack or the refusal text, and a decided card is edited to its outcome
// through the channel's outbox, the one way every card edit goes (so whichever gateway holds the channel does it).
import { type AnswerResult, answerApproval, findReplyTarget } from '../approval/answer.ts';
import type { AnswerOrigin } from '../approval/answer-authz.ts';
import { latePressText } from '../approval/answer-texts.ts';
import type { ApprovalStore } from '../approval/approval-store.ts';
import { type ApprovalDelivery, cardRecipient } from '../approval/card-delivery.ts';
import { approvalAck } from '../approval/copy.ts';
import { parseTokenReply } from '../approval/text-reply.ts';
import type { ApprovalAction } from '../channel-host/approval-card.ts';
import type { DialectOf } from '../channel-host/dialect.ts';
import type { ActionHandler, InboundAction, InboundMessage, OutboxWriter } from '../channel-host/types.ts';
import type { BatonConfig } from '../config/types.ts';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';

export interface ApprovalBrokerOptions {
  config: Pick<BatonConfig, 'peer_groups'>;
  store: Pick<ApprovalStore, 'get' | 'decide' | 'findByReplyToken'>;
  /** Asks the channel's holder to edit a decided card (rendered there from the record, `decided_by` included). */
  delivery: Pick<ApprovalDelivery, 'edit'>;
  /** Each channel's button data and same-destination rule. */
  dialectOf: DialectOf;
  /** Where a token reply's answer goes (the chat it came from). */
  outbox: OutboxWriter;
  logger: Pick<Logger, 'warn'>;
}

const originOf = (e: InboundAction | InboundMessage): AnswerOrigin => ({
  channel: e.channel,
  chat: e.chat,
  ...(e.thread ? { thread: e.thread } : {}),
  sender: e.sender,
});

export function createApprovalBroker(opts: ApprovalBrokerOptions): Required<ActionHandler> {
  const { store, dialectOf } = opts;
  const deps = { store, config: opts.config, logger: opts.logger, dialectOf };

  /** The presser's text; a decision also asks for the card's edit (buttons removed). */
  async function settle(res: AnswerResult, action: ApprovalAction): Promise<string> {
    if (res.kind !== 'decided') return res.text;
    const rec = res.record;
    await opts.delivery.edit(rec.channel, rec.approval_id, cardRecipient(rec)).catch((err: unknown) => {
      opts.logger.warn(
        { approval_id: rec.approval_id, err: errorMessage(err) },
        'approval card edit request failed',
      );
    });
    return approvalAck(action);
  }

  return {
    async handle(action) {
      const dialect = dialectOf(action.channel);
      if (!dialect.isApprovalButton(action.actionId)) return undefined;
      const press = dialect.parseApprovalPress(action.actionId, action.value);
      if (!press) return { notice: approvalAck('unknown') };
      const rec = await store.get(press.approvalId);
      // A token in the button data (Slack) must be the record's own (§12.4); otherwise the press resolves nothing.
      if (rec && press.token !== undefined && rec.reply_token !== press.token)
        return { notice: latePressText() };
      const res = await answerApproval(deps, rec ?? press.approvalId, press.action, originOf(action));
      return { notice: await settle(res, press.action) };
    },

    async reply(message) {
      const parsed = parseTokenReply(message.text);
      if (!parsed) return false;
      const origin = originOf(message);
      const rec = await findReplyTarget(deps, origin, parsed.token);
      if (!rec) return false; // a token of no record of this chat: an ordinary message
      const res = await answerApproval(deps, rec, parsed.action, origin);
      const text = await settle(res, parsed.action);
      const to = {
        channel: message.channel,
        chat: message.chat,
        ...(message.thread ? { thread: message.thread } : {}),
      };
      await opts.outbox.enqueue(to, { text }, `approval-reply:${message.channel}:${message.eventId}`);
      return true;
    },
  };
}
