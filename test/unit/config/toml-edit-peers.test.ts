// Admitting a refused sender (issue 21 #15): which [peer_groups] entry admits them, and the format-preserving edit
// that writes it (comments, spacing and order kept; only the one array or section changes).
import { describe, expect, it } from 'vitest';
import { admissionFor, admissionToml } from '../../../src/channel-host/admission.ts';
import { isAuthorised } from '../../../src/channel-host/peer-authz.ts';
import { addExternalPeer } from '../../../src/config/toml-edit-peers.ts';
import { configFromToml } from '../../helpers/test-config.ts';

const HEAD = `schema_version = 3
[providers.models.custom.fake]
uri = "http://127.0.0.1:1/v1"
model = "m"
[risk_profiles.default]
[agents.main]
model_provider = "custom.fake"
risk_profile = "default"
channels = ["telegram.main"]
[channels.telegram.main]
enabled = false
`;

/** The edit applied and the result loaded: the sender is now admitted. */
function admit(toml: string, id = '123456789') {
  const before = configFromToml(toml);
  const a = admissionFor(before, 'telegram.main', 'main', id);
  const res = addExternalPeer(toml, a);
  if (!res.ok) throw new Error(res.error);
  const after = configFromToml(res.text);
  expect(isAuthorised(before, 'telegram.main', 'main', { id })).toBe(false);
  expect(isAuthorised(after, 'telegram.main', 'main', { id, username: 'someone' })).toBe(true);
  return { a, text: res.text };
}

describe('admitting a refused sender', () => {
  it('adds the numeric id to the existing group, keeping comments and spacing', () => {
    const toml = `${HEAD}
# Nobody may talk to main on Telegram until you list yourself.
[peer_groups.telegram-owners]
channel = "telegram.main"
agents = ["main"]
external_peers = []                     # e.g. ["@your_username"] or ["123456789"]
`;
    const { a, text } = admit(toml);
    expect(a).toMatchObject({ group: 'telegram-owners', exists: true, peer: '123456789' });
    expect(text).toBe(toml.replace('external_peers = []   ', 'external_peers = ["123456789"]   '));
    expect(admissionToml(a)).toBe(
      '[peer_groups.telegram-owners]\nchannel = "telegram.main"\nagents = ["main"]\nexternal_peers = ["123456789"]',
    );
  });

  it('puts the id first in a non-empty array, one line or several', () => {
    const one = `${HEAD}[peer_groups.g] # mine
channel = "telegram"
agents = ["main"]
external_peers = ["@alice", "42"] # the team
`;
    expect(admit(one).text).toBe(one.replace('["@alice", "42"]', '["123456789", "@alice", "42"]'));
    const many = `${HEAD}[peer_groups.g]
channel = "telegram.main"
agents = ["main"]
external_peers = [
  "42", # bob
]
`;
    expect(admit(many).text).toBe(many.replace('[\n  "42"', '[\n  "123456789",\n  "42"'));
  });

  it('adds the key to a group without external_peers, and a new group when none names the channel and agent', () => {
    const noKey = `${HEAD}[peer_groups.g]
channel = "telegram.main"
agents = ["main"] # only main
`;
    expect(admit(noKey).text).toBe(`${noKey}external_peers = ["123456789"]\n`);
    const other = `${HEAD}# web only
[peer_groups.web]
channel = "web"
agents = ["main"]
external_peers = ["web:local"]
`;
    const { a, text } = admit(other);
    expect(a).toMatchObject({ group: 'telegram-main-main', exists: false });
    expect(text).toBe(
      `${other}\n[peer_groups.telegram-main-main]\nchannel = "telegram.main"\nagents = ["main"]\nexternal_peers = ["123456789"]\n`,
    );
  });

  it('refuses a group it cannot edit safely (an inline table) and leaves an admitted id alone', () => {
    const inline = `${HEAD}[peer_groups]
g = { channel = "telegram.main", agents = ["main"], external_peers = [] }
`;
    const a = admissionFor(configFromToml(inline), 'telegram.main', 'main', '7');
    expect(addExternalPeer(inline, a)).toEqual({
      ok: false,
      error: 'cannot add to peer_groups.g.external_peers in this file safely',
    });
    const listed = `${HEAD}[peer_groups.g]\nchannel = "telegram.main"\nagents = ["main"]\nexternal_peers = ["7"]\n`;
    expect(addExternalPeer(listed, { ...a, group: 'g' })).toEqual({ ok: true, text: listed });
  });
});
