// Who may talk to which agent on which channel, and who may answer its approvals: [peer_groups] (config.md §13).
import type { BatonConfig, PeerGroup } from '../config/types.ts';

export interface PeerIdentity {
  id: string;
  username?: string | undefined;
}

export function channelMatches(groupChannel: string, channelKey: string): boolean {
  const g = groupChannel.trim();
  return g === channelKey || (!g.includes('.') && channelKey.startsWith(`${g}.`));
}

const normalUsername = (u: string) => u.trim().replace(/^@/, '').toLowerCase();

/**
 * `"*"` is anyone; `@name` is a username, case-insensitively; anything else is a user id, exactly. A bare entry
 * never matches a username: a platform may let anyone pick a username that equals someone else's id.
 */
export function peerMatches(entry: string, who: PeerIdentity): boolean {
  const e = entry.trim();
  if (e === '*') return true;
  if (e.startsWith('@')) {
    const name = normalUsername(e);
    return name !== '' && who.username !== undefined && name === normalUsername(who.username);
  }
  return e !== '' && e === who.id;
}

type Groups = Pick<BatonConfig, 'peer_groups'>;

function anyGroup(config: Groups, channelKey: string, agent: string, listed: (g: PeerGroup) => boolean) {
  return Object.values(config.peer_groups).some(
    (g) => channelMatches(g.channel, channelKey) && g.agents.some((a) => a.trim() === agent) && listed(g),
  );
}

/** Who may talk: some peer group names this channel (exactly or by bare type), this agent, and this person. */
export function isAuthorised(config: Groups, channelKey: string, agent: string, who: PeerIdentity): boolean {
  return anyGroup(config, channelKey, agent, (g) => g.external_peers.some((p) => peerMatches(p, who)));
}

/** Who may answer an approval: as isAuthorised, but a group's `approvers` replace its `external_peers` when set. */
export function isApprover(config: Groups, channelKey: string, agent: string, who: PeerIdentity): boolean {
  return anyGroup(config, channelKey, agent, (g) =>
    (g.approvers ?? g.external_peers).some((p) => peerMatches(p, who)),
  );
}
