// The pairing step for a refused sender: which [peer_groups] entry would let this person talk to the agent of
// this channel. The entry names the platform's user id (exact, stable), never a username anyone can change.
import { type Admission, admissionToml } from '../config/toml-edit-peers.ts';
import type { BatonConfig } from '../config/types.ts';
import { channelMatches } from './peer-authz.ts';

const NAME_PART = /[^A-Za-z0-9_-]+/g;

/** The existing group that names this channel (exactly first, then by bare type) and agent, else a new one. */
export function admissionFor(
  config: Pick<BatonConfig, 'peer_groups'>,
  channelKey: string,
  agent: string,
  senderId: string,
): Admission {
  const groups = Object.values(config.peer_groups).filter(
    (g) => channelMatches(g.channel, channelKey) && g.agents.some((a) => a.trim() === agent),
  );
  const group = groups.find((g) => g.channel.trim() === channelKey) ?? groups[0];
  if (group) {
    const peers = group.external_peers.includes(senderId)
      ? group.external_peers
      : [...group.external_peers, senderId];
    return {
      group: group.name,
      exists: true,
      channel: group.channel,
      agents: group.agents,
      peer: senderId,
      externalPeers: peers,
    };
  }
  const base = `${channelKey}-${agent}`.replace(NAME_PART, '-');
  let name = base;
  for (let n = 2; Object.hasOwn(config.peer_groups, name); n++) name = `${base}-${n}`;
  return {
    group: name,
    exists: false,
    channel: channelKey,
    agents: [agent],
    peer: senderId,
    externalPeers: [senderId],
  };
}

export { type Admission, admissionToml };
