// A press or token reply, end to end for the gateway: load, §11 checks, the §10 CAS, and the text to answer with.
import type { DialectOf } from '../channel-host/dialect.ts';
import type { BatonConfig } from '../config/types.ts';
import type { Logger } from '../core/logger.ts';
import type { Catalog } from '../i18n/catalog.ts';
import { type AnswerOrigin, checkAnswerer, fromDestination } from './answer-authz.ts';
import { latePressText, unauthorisedText } from './answer-texts.ts';
import type { ApprovalStore, DecideResult } from './approval-store.ts';
import type { ApprovalRecord, OperatorAnswer, SettledStatus } from './record.ts';

export interface AnswerDeps {
  store: Pick<ApprovalStore, 'get' | 'decide' | 'findByReplyToken'>;
  config: Pick<BatonConfig, 'peer_groups'>;
  logger: Pick<Logger, 'warn'>;
  /** Each channel's same-destination rule (§11 check 1). */
  dialectOf: DialectOf;
  catalog?: Catalog;
}

/**
 * `decided`: the answer counts; reply with the §12.1 ack for `status`. Otherwise `text` is the reply: the
 * late-press text (also for an unknown or tampered id: "resolves nothing") or the unauthorised text.
 */
export type AnswerResult =
  | { kind: 'decided'; status: SettledStatus; record: ApprovalRecord }
  | { kind: 'late'; reason: Extract<DecideResult, { kind: 'late' }>['reason']; text: string }
  | { kind: 'unauthorised'; text: string };

/** Applies §11 checks 1-3 in order to a press on `target` (an approval id from button data, or a loaded record). */
export async function answerApproval(
  deps: AnswerDeps,
  target: string | ApprovalRecord,
  answer: OperatorAnswer,
  origin: AnswerOrigin,
): Promise<AnswerResult> {
  const record = typeof target === 'string' ? await deps.store.get(target) : target;
  if (!record) return { kind: 'late', reason: 'unknown', text: latePressText(deps.catalog) };
  const check = checkAnswerer(deps.config, record, origin, deps.dialectOf);
  if (check !== 'ok') {
    deps.logger.warn(
      { approval_id: record.approval_id, channel: origin.channel, user_id: origin.sender.id, check },
      'approval answer refused: not authorized',
    );
    return { kind: 'unauthorised', text: unauthorisedText(deps.catalog) };
  }
  const { id, username } = origin.sender;
  const res = await deps.store.decide(record.approval_id, answer, {
    channel: origin.channel,
    user: id,
    ...(username ? { name: username } : {}),
  });
  if (res.kind === 'late') return { kind: 'late', reason: res.reason, text: latePressText(deps.catalog) };
  return { kind: 'decided', status: res.status, record };
}

/**
 * Text mode (§12.5): the record a well-formed `<token> <word>` reply names in this chat, or null when the
 * token belongs to no record of this destination (then the reply is an ordinary message).
 */
export async function findReplyTarget(
  deps: Pick<AnswerDeps, 'store' | 'dialectOf'>,
  origin: AnswerOrigin,
  token: string,
): Promise<ApprovalRecord | null> {
  const record = await deps.store.findByReplyToken(origin.channel, origin.chat, token);
  return record && fromDestination(record, origin, deps.dialectOf) ? record : null;
}
