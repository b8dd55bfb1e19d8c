// Who may answer an approval (approvals.md §11 checks 1 and 2); pure, so the gateway applies it before the CAS.
import { channelKind, type DialectOf } from '../channel-host/dialect.ts';
import { isApprover, type PeerIdentity } from '../channel-host/peer-authz.ts';
import type { BatonConfig } from '../config/types.ts';
import type { ApprovalRecord } from './record.ts';

/** Where a press or reply came from, and who sent it (from the channel's inbound event). */
export interface AnswerOrigin {
  channel: string;
  chat: string;
  thread?: string | undefined;
  sender: PeerIdentity;
}

export type AnswererCheck = 'ok' | 'wrong_chat' | 'requester' | 'unauthorised';

/**
 * §11 check 1: the prompt's destination chat, by its channel's rule (the same chat and thread on most platforms;
 * a Discord thread is its own channel; Slack: the same channel, any thread).
 */
export function fromDestination(
  record: Pick<ApprovalRecord, 'channel' | 'destination'>,
  origin: AnswerOrigin,
  dialectOf: DialectOf,
): boolean {
  return (
    origin.channel === record.channel && dialectOf(record.channel).sameDestination(record.destination, origin)
  );
}

/**
 * The user whose message started a routed approval's root run. Compared by platform type and user id: those ids
 * are one person on every alias of the platform (a second bot in the same workspace sees the same user id).
 */
function isRequester(record: Pick<ApprovalRecord, 'requester'>, origin: AnswerOrigin): boolean {
  const r = record.requester;
  return r !== null && channelKind(r.channel) === channelKind(origin.channel) && r.user === origin.sender.id;
}

/**
 * §11 checks 1 and 2: from the destination chat, not the requester of a routed approval, and a peer group names
 * the approval's channel (exactly or by bare type), the gated agent (a delegated child's target: the record's
 * `agent`) and the sender (or "*") among its `approvers`, or its `external_peers` when it has no `approvers`.
 */
export function checkAnswerer(
  config: Pick<BatonConfig, 'peer_groups'>,
  record: Pick<ApprovalRecord, 'channel' | 'destination' | 'agent' | 'requester'>,
  origin: AnswerOrigin,
  dialectOf: DialectOf,
): AnswererCheck {
  if (!fromDestination(record, origin, dialectOf)) return 'wrong_chat';
  if (isRequester(record, origin)) return 'requester';
  return isApprover(config, record.channel, record.agent, origin.sender) ? 'ok' : 'unauthorised';
}
