// The approvals broker on the gateway (approvals.md §10-§12): button presses and token replies become decisions
// (§11 checks, one CAS), the presser gets the ack or the refusal text, and a decided card loses its buttons.
import { type AnswerResult, answerApproval, findReplyTarget } from '../approval/answer.ts';
import type { AnswerOrigin } from '../approval/answer-authz.ts';
import { latePressText } from '../approval/answer-texts.ts';
import type { ApprovalStore } from '../approval/approval-store.ts';
import { approvalAck } from '../approval/copy.ts';
import { operatorLabel } from '../approval/operator-label.ts';
import { parseTokenReply } from '../approval/text-reply.ts';
import type { ApprovalAction } from '../channel/approval-card.ts';
import type { DialectOf } from '../channel/dialect.ts';
import type {
  ActionHandler,
  ChannelAdapter,
  InboundAction,
  InboundMessage,
  OutboxWriter,
} from '../channel/types.ts';
import type { BatonConfig } from '../config/types.ts';
import type { Logger } from '../core/logger.ts';
import type { ApprovalCards } from './approval-cards.ts';

export interface ApprovalBrokerOptions {
  config: Pick<BatonConfig, 'peer_groups'>;
  store: Pick<ApprovalStore, 'get' | 'decide' | 'findByReplyToken'>;
  cards: Pick<ApprovalCards, 'showOutcome'>;
  /** The adapters this gateway runs, by channel key (a decided card is edited through its channel's adapter). */
  adapterOf(channelKey: string): ChannelAdapter | undefined;
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

const labelOf = (e: InboundAction | InboundMessage) =>
  operatorLabel({ user: e.sender.id, name: e.sender.username });

export function createApprovalBroker(opts: ApprovalBrokerOptions): Required<ActionHandler> {
  const { store, dialectOf } = opts;
  const deps = { store, config: opts.config, logger: opts.logger, dialectOf };

  /** The presser's text; a decision also edits the card (buttons removed). */
  async function settle(res: AnswerResult, action: ApprovalAction, by: string): Promise<string> {
    if (res.kind !== 'decided') return res.text;
    const adapter = opts.adapterOf(res.record.channel);
    if (adapter) await opts.cards.showOutcome(adapter, { ...res.record, status: res.status }, by);
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
      return { notice: await settle(res, press.action, labelOf(action)) };
    },

    async reply(message) {
      const parsed = parseTokenReply(message.text);
      if (!parsed) return false;
      const origin = originOf(message);
      const rec = await findReplyTarget(deps, origin, parsed.token);
      if (!rec) return false; // a token of no record of this chat: an ordinary message
      const res = await answerApproval(deps, rec, parsed.action, origin);
      const text = await settle(res, parsed.action, labelOf(message));
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
