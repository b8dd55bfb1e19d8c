// The pairing step for a refused sender: which [peer_groups] entry would let this person talk to the agent of
// this channel. The entry names the platform's user id (exact, stable), never a username anyone can change.
import type { BatonConfig } from '../config/types.ts';
import { channelMatches } from './peer-authz.ts';

export interface Admission {
  /** The peer group the id goes into: an existing one for this channel and agent, else a new one. */
  group: string;
  /** True when `[peer_groups.<group>]` already exists (the id is added to its external_peers). */
  exists: boolean;
  channel: string;
  agents: string[];
  /** The entry added to external_peers: the sender's id. */
  peer: string;
  /** The group's external_peers once the id is in. */
  externalPeers: string[];
}

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

const list = (items: readonly string[]) => `[${items.map((s) => JSON.stringify(s)).join(', ')}]`;

/** The entry as TOML, e.g. `[peer_groups.telegram-owners]\nchannel = "telegram.main"\n…` (its admitting keys). */
export function admissionToml(a: Admission): string {
  return [
    `[peer_groups.${a.group}]`,
    `channel = ${JSON.stringify(a.channel)}`,
    `agents = ${list(a.agents)}`,
    `external_peers = ${list(a.externalPeers)}`,
  ].join('\n');
}
