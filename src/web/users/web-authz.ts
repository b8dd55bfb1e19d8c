// What a signed-in web user may do and see, by the rule that decides who answers approvals (approvals.md §11):
// a peer group whose channel is `web` or `web.<alias>` names the agent and the user (`approvers`, else
// `external_peers`; `"*"` is anyone signed in). Operators (the local user, the api_token operator, web users with
// `operator = true`) may do everything, and only they may edit the config.
import { peerMatches } from '../../channel-host/peer-authz.ts';
import type { BatonConfig } from '../../config/types.ts';

export interface WebActor {
  peerId: string;
  /** The chat id of this browser session's web chat (its own conversations are always its to read and stop). */
  chatId: string;
  operator: boolean;
}

type Groups = Pick<BatonConfig, 'peer_groups'>;

const isWebGroupChannel = (channel: string) => {
  const c = channel.trim();
  return c === 'web' || c.startsWith('web.');
};

/** May this user act for `agent` (cancel its tasks, abort its turns) and read its sessions, tasks and approvals? */
export function mayActFor(config: Groups, user: WebActor, agent: string): boolean {
  if (user.operator) return true;
  return Object.values(config.peer_groups).some(
    (g) =>
      isWebGroupChannel(g.channel) &&
      g.agents.some((a) => a.trim() === agent) &&
      (g.approvers ?? g.external_peers).some((p) => peerMatches(p, { id: user.peerId })),
  );
}

/** The user's own web chat conversation (`web.<alias>:<their chat id>:<thread>`). */
export function ownsConversation(user: WebActor, sessionKey: string): boolean {
  const parts = sessionKey.split(':');
  return parts.length === 3 && (parts[0] ?? '').startsWith('web.') && parts[1] === user.chatId;
}

/** A session (agent + conversation) this user may read or stop. */
export function maySeeSession(config: Groups, user: WebActor, agent: string, sessionKey: string): boolean {
  return mayActFor(config, user, agent) || ownsConversation(user, sessionKey);
}

/** A background task: its target agent or any agent of its delegation chain is the user's. */
export function maySeeTask(
  config: Groups,
  user: WebActor,
  task: { agent: string; chain: readonly string[] },
) {
  return [task.agent, ...task.chain].some((a) => mayActFor(config, user, a));
}
