// Deciding an approval from the dashboard: the web peer-group check, the same CAS as the channel buttons, and a
// card-edit request to the gateway that holds the approval's channel (approvals.md §10-§11, §14).
import { latePressText, unauthorisedText } from '../../approval/answer-texts.ts';
import type { ApprovalStore } from '../../approval/approval-store.ts';
import type { ApprovalDelivery } from '../../approval/channel-asker.ts';
import { approvalAck } from '../../approval/copy.ts';
import { isAuthorised } from '../../channel/peer-authz.ts';
import type { BatonConfig } from '../../config/types.ts';
import { errorMessage } from '../../core/errors.ts';
import type { Logger } from '../../core/logger.ts';
import type { WebUser } from './web-user.ts';

/** `decided_by.channel` of a dashboard decision; `decided_by.user` is `web:<login>`. */
export const DASHBOARD_CHANNEL = 'web.dashboard';

export type DashboardAnswer = 'approve' | 'deny';

const isWebChannel = (c: string) => c.trim() === 'web' || c.trim().startsWith('web.');

/**
 * The product owner's rule for dashboard answers: a [peer_groups] entry on the web channel (`web` or
 * `web.<alias>`) lists the gated agent (a delegated child's target: the record's `agent`) and the user, as
 * `<login>`, `web:<login>` or "*".
 */
export function webMayDecide(
  config: Pick<BatonConfig, 'peer_groups'>,
  agent: string,
  user: WebUser,
): boolean {
  return Object.values(config.peer_groups).some((g) => {
    if (!isWebChannel(g.channel)) return false;
    const one = { peer_groups: { [g.name]: g } };
    const key = g.channel.includes('.') ? g.channel.trim() : DASHBOARD_CHANNEL;
    return (
      isAuthorised(one, key, agent, { id: user.peerId, username: user.login }) ||
      isAuthorised(one, key, agent, { id: user.login })
    );
  });
}

export interface DecideDeps {
  config: () => Pick<BatonConfig, 'peer_groups'>;
  approvals: Pick<ApprovalStore, 'get' | 'decide'>;
  cards: Pick<ApprovalDelivery, 'edit'>;
  logger: Pick<Logger, 'info' | 'warn'>;
}

export type DashboardDecision =
  | { kind: 'decided'; text: string }
  | { kind: 'late'; text: string }
  | { kind: 'unauthorised'; text: string };

export async function decideFromDashboard(
  deps: DecideDeps,
  approvalId: string,
  answer: DashboardAnswer,
  user: WebUser,
): Promise<DashboardDecision> {
  const rec = await deps.approvals.get(approvalId);
  if (!rec) return { kind: 'late', text: latePressText() };
  if (!webMayDecide(deps.config(), rec.agent, user)) {
    deps.logger.warn(
      { approval_id: rec.approval_id, channel: DASHBOARD_CHANNEL, user_id: user.peerId },
      'approval answer refused: not authorized',
    );
    return { kind: 'unauthorised', text: unauthorisedText() };
  }
  const res = await deps.approvals.decide(rec.approval_id, answer, {
    channel: DASHBOARD_CHANNEL,
    user: user.peerId,
  });
  if (res.kind === 'late') return { kind: 'late', text: latePressText() };
  // The waiter logs the §14 line with decided_by; this line says where the answer came from.
  deps.logger.info(
    { approval_id: rec.approval_id, decision: answer, decided_by: user.peerId, via: 'dashboard' },
    'approval answered from the dashboard',
  );
  const dest = rec.destination;
  const to = { channel: rec.channel, chat: dest.chat, ...(dest.thread ? { thread: dest.thread } : {}) };
  await deps.cards.edit(rec.channel, rec.approval_id, to).catch((err: unknown) => {
    deps.logger.warn(
      { approval_id: rec.approval_id, err: errorMessage(err) },
      'approval card edit request failed',
    );
  });
  return { kind: 'decided', text: approvalAck(answer) };
}
