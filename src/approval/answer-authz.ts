// Who may answer an approval (approvals.md §11 checks 1 and 2); pure, so the gateway applies it before the CAS.
import { isApprover, type PeerIdentity } from '../channel/peer-authz.ts';
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

const typeOf = (channelKey: string) => channelKey.split('.')[0];

/**
 * §11 check 1: the prompt's destination chat. Telegram: same chat and thread. Discord: same channel or thread
 * (a thread is its own channel there, so the effective target is the thread id when set, else the chat).
 * Slack: same channel, any thread. Other channel types: same chat and thread.
 */
export function fromDestination(
  record: Pick<ApprovalRecord, 'channel' | 'destination'>,
  origin: AnswerOrigin,
): boolean {
  if (origin.channel !== record.channel) return false;
  const dest = record.destination;
  const thread = origin.thread ?? null;
  switch (typeOf(record.channel)) {
    case 'slack':
      return origin.chat === dest.chat;
    case 'discord':
      return (thread ?? origin.chat) === (dest.thread ?? dest.chat);
    default:
      return origin.chat === dest.chat && thread === dest.thread;
  }
}

/**
 * The user whose message started a routed approval's root run. Compared by platform type and user id: those ids
 * are one person on every alias of the platform (a second bot in the same workspace sees the same user id).
 */
function isRequester(record: Pick<ApprovalRecord, 'requester'>, origin: AnswerOrigin): boolean {
  const r = record.requester;
  return r !== null && typeOf(r.channel) === typeOf(origin.channel) && r.user === origin.sender.id;
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
): AnswererCheck {
  if (!fromDestination(record, origin)) return 'wrong_chat';
  if (isRequester(record, origin)) return 'requester';
  return isApprover(config, record.channel, record.agent, origin.sender) ? 'ok' : 'unauthorised';
}
