// Peer entries that can never match (config.md §13): a bare entry is a user id, matched exactly, so one that
// cannot be an id on its platform was almost surely meant as a username (matched by older baton).
import { bareEntryNotAnId } from './config-messages.ts';
import type { BatonConfig } from './types.ts';

/** The user-id shape of each platform; a type not listed (the local channel) takes any id. */
const ID_SHAPE: Record<string, RegExp> = {
  telegram: /^-?\d+$/,
  discord: /^\d+$/,
  slack: /^[A-Z0-9]+$/,
  web: /^web:.+$/,
};

export interface PeerWarning {
  segments: PropertyKey[];
  reason: string;
}

export function peerEntryWarnings(config: Pick<BatonConfig, 'peer_groups'>): PeerWarning[] {
  const out: PeerWarning[] = [];
  for (const [name, group] of Object.entries(config.peer_groups)) {
    const type = group.channel.trim().split('.')[0] ?? '';
    const shape = ID_SHAPE[type];
    if (!shape) continue;
    const lists = { external_peers: group.external_peers, approvers: group.approvers ?? [] };
    for (const [key, entries] of Object.entries(lists)) {
      entries.forEach((entry, i) => {
        const e = entry.trim();
        if (e === '*' || e.startsWith('@') || shape.test(e)) return;
        out.push({ segments: ['peer_groups', name, key, i], reason: bareEntryNotAnId(e, type) });
      });
    }
  }
  return out;
}
