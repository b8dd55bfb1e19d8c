// config.md §13 entry forms: ids match ids exactly, `@name` matches a username case-insensitively, "*" anyone;
// and the config warning for a bare entry that cannot be an id on its platform.
import { describe, expect, it } from 'vitest';
import { peerMatches } from '../../../src/channel-host/peer-authz.ts';
import { configOf, errors, load, MINIMAL, messages, warnings } from '../config/load-helper.ts';

describe('peer entry forms (config.md §13)', () => {
  it('matches a bare entry against the user id only, case-sensitively', () => {
    expect(peerMatches('UAPPROVER1', { id: 'UAPPROVER1' })).toBe(true);
    // The attack: another user whose username spells the id.
    expect(peerMatches('UAPPROVER1', { id: 'UATTACK99', username: 'uapprover1' })).toBe(false);
    expect(peerMatches('UAPPROVER1', { id: 'UATTACK99', username: 'UAPPROVER1' })).toBe(false);
    expect(peerMatches('uapprover1', { id: 'UAPPROVER1' })).toBe(false);
    expect(peerMatches('alice', { id: '9', username: 'alice' })).toBe(false);
  });

  it('matches @name against the username, case-insensitively, never against the id', () => {
    expect(peerMatches('@Alice', { id: '9', username: 'alice' })).toBe(true);
    expect(peerMatches('@alice', { id: '9', username: '@ALICE' })).toBe(true);
    expect(peerMatches('@alice', { id: 'alice' })).toBe(false);
    expect(peerMatches('@', { id: '9', username: '' })).toBe(false);
  });

  it('"*" matches anyone; an empty entry no one', () => {
    expect(peerMatches('*', { id: 'x' })).toBe(true);
    expect(peerMatches(' ', { id: ' ' })).toBe(false);
  });
});

describe('config warning for a bare entry that cannot be an id', () => {
  it('names the TOML path and says to write @name (web: web:name)', () => {
    const r = load(`${MINIMAL}
[peer_groups.tg]
channel = "telegram"
agents = ["a"]
external_peers = ["123", "-100", "@carol", "*", "alice"]
[peer_groups.dc]
channel = "discord.main"
agents = ["a"]
external_peers = ["223344556677889900", "bob"]
[peer_groups.sl]
channel = "slack"
agents = ["a"]
external_peers = ["U0123ABCD", "uapprover1"]
[peer_groups.web]
channel = "web"
agents = ["a"]
external_peers = ["web:local", "alice"]
[peer_groups.local]
channel = "local"
agents = ["a"]
external_peers = ["alice"]
`);
    expect(errors(r)).toEqual([]);
    expect(warnings(r).filter((w) => w.includes('peer_groups'))).toEqual([
      `Config warning at 'peer_groups.tg.external_peers[4]': "alice" is not a telegram user id and matches no one (a bare entry matches ids only); write "@alice" for a username`,
      `Config warning at 'peer_groups.dc.external_peers[1]': "bob" is not a discord user id and matches no one (a bare entry matches ids only); write "@bob" for a username`,
      `Config warning at 'peer_groups.sl.external_peers[1]': "uapprover1" is not a slack user id and matches no one (a bare entry matches ids only); write "@uapprover1" for a username`,
      `Config warning at 'peer_groups.web.external_peers[1]': "alice" is not a web user id and matches no one; write "web:alice"`,
    ]);
  });
});

describe('[peer_groups.<g>] approvers', () => {
  it('loads as a trimmed list, absent when not written, with the same entry warnings', () => {
    const r = load(`${MINIMAL}
[peer_groups.ops]
channel = "telegram"
agents = ["a"]
external_peers = ["1"]
approvers = [" 2 ", "bob"]
[peer_groups.chat]
channel = "telegram"
agents = ["a"]
`);
    expect(errors(r)).toEqual([]);
    const groups = configOf(r).peer_groups;
    expect(groups.ops?.approvers).toEqual(['2', 'bob']);
    expect(groups.chat).not.toHaveProperty('approvers');
    expect(warnings(r)).toContain(
      `Config warning at 'peer_groups.ops.approvers[1]': "bob" is not a telegram user id and matches no one (a bare entry matches ids only); write "@bob" for a username`,
    );
  });

  it('a mistyped key or a wrong type is named by its TOML path', () => {
    const r = load(`${MINIMAL}
[peer_groups.ops]
channel = "telegram"
agents = ["a"]
approver = ["2"]
[peer_groups.typed]
channel = "telegram"
agents = ["a"]
approvers = "2"
`);
    expect(messages(r)).toContain("Unknown config key 'peer_groups.ops.approver' (ignored)");
    expect(errors(r).some((e) => e.startsWith("Invalid config at 'peer_groups.typed.approvers'"))).toBe(true);
  });
});
