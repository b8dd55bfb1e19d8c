// approvals.md §11: who may answer, from where; and the exact refusal texts.
import { describe, expect, it } from 'vitest';
import { checkAnswerer, fromDestination } from '../../../src/approval/answer-authz.ts';
import { latePressText, unauthorisedText } from '../../../src/approval/answer-texts.ts';
import type { PeerGroup } from '../../../src/config/types.ts';
import { createCatalog } from '../../../src/i18n/catalog.ts';
import { dialectOf } from '../../../src/roles/platforms.ts';

const group = (over: Partial<PeerGroup>): PeerGroup => ({
  name: 'g',
  channel: 'telegram.ops',
  agents: ['main'],
  external_peers: ['42'],
  ...over,
});
const config = (...groups: PeerGroup[]) => ({
  peer_groups: Object.fromEntries(groups.map((g, i) => [`g${i}`, g])),
});
const rec = (channel: string, chat: string, thread: string | null = null, agent = 'main') => ({
  channel,
  destination: { chat, thread },
  agent,
  requester: null as { channel: string; user: string } | null,
});
const from = (channel: string, chat: string, thread?: string, id = '42', username?: string) => ({
  channel,
  chat,
  thread,
  sender: { id, ...(username ? { username } : {}) },
});

describe('§11 check 1: from the destination chat', () => {
  it('Telegram: same chat and same thread', () => {
    expect(
      fromDestination(rec('telegram.ops', '100', '5'), from('telegram.ops', '100', '5'), dialectOf),
    ).toBe(true);
    expect(fromDestination(rec('telegram.ops', '100', '5'), from('telegram.ops', '100'), dialectOf)).toBe(
      false,
    );
    expect(
      fromDestination(rec('telegram.ops', '100', '5'), from('telegram.ops', '100', '6'), dialectOf),
    ).toBe(false);
    expect(fromDestination(rec('telegram.ops', '100'), from('telegram.ops', '100', '5'), dialectOf)).toBe(
      false,
    );
    expect(fromDestination(rec('telegram.ops', '100'), from('telegram.ops', '101'), dialectOf)).toBe(false);
  });

  it('Discord: the same channel, or the same thread', () => {
    expect(fromDestination(rec('discord.ops', 'C1'), from('discord.ops', 'C1'), dialectOf)).toBe(true);
    expect(fromDestination(rec('discord.ops', 'T1'), from('discord.ops', 'T1'), dialectOf)).toBe(true);
    expect(fromDestination(rec('discord.ops', 'C1', 'T1'), from('discord.ops', 'T1'), dialectOf)).toBe(true);
    expect(fromDestination(rec('discord.ops', 'C1', 'T1'), from('discord.ops', 'C1', 'T1'), dialectOf)).toBe(
      true,
    );
    expect(fromDestination(rec('discord.ops', 'C1', 'T1'), from('discord.ops', 'C1'), dialectOf)).toBe(false);
    expect(fromDestination(rec('discord.ops', 'C1'), from('discord.ops', 'C2'), dialectOf)).toBe(false);
  });

  it('Slack: the same channel, whatever the thread', () => {
    expect(fromDestination(rec('slack.ops', 'C1', '1.2'), from('slack.ops', 'C1'), dialectOf)).toBe(true);
    expect(fromDestination(rec('slack.ops', 'C1'), from('slack.ops', 'C1', '1.2'), dialectOf)).toBe(true);
    expect(fromDestination(rec('slack.ops', 'C1'), from('slack.ops', 'C2'), dialectOf)).toBe(false);
  });

  it('never from another channel key', () => {
    expect(fromDestination(rec('telegram.ops', '100'), from('telegram.other', '100'), dialectOf)).toBe(false);
  });
});

describe('§11 check 2: a peer group names the channel, the gated agent and the user', () => {
  const r = rec('telegram.ops', '100');
  const f = from('telegram.ops', '100');
  it('matches the channel exactly or by bare type', () => {
    expect(checkAnswerer(config(group({})), r, f, dialectOf)).toBe('ok');
    expect(checkAnswerer(config(group({ channel: 'telegram' })), r, f, dialectOf)).toBe('ok');
    expect(checkAnswerer(config(group({ channel: 'telegram.other' })), r, f, dialectOf)).toBe('unauthorised');
    expect(checkAnswerer(config(group({ channel: 'discord' })), r, f, dialectOf)).toBe('unauthorised');
  });

  it('needs the gated agent (a delegated child: the target) in agents', () => {
    expect(checkAnswerer(config(group({ agents: ['other'] })), r, f, dialectOf)).toBe('unauthorised');
    expect(
      checkAnswerer(
        config(group({ agents: ['main'] })),
        rec('telegram.ops', '100', null, 'coder'),
        f,
        dialectOf,
      ),
    ).toBe('unauthorised');
    expect(
      checkAnswerer(
        config(group({ agents: ['coder'] })),
        rec('telegram.ops', '100', null, 'coder'),
        f,
        dialectOf,
      ),
    ).toBe('ok');
  });

  it('needs the user, or "*", in external_peers; all three in one group', () => {
    expect(checkAnswerer(config(group({ external_peers: ['43'] })), r, f, dialectOf)).toBe('unauthorised');
    expect(checkAnswerer(config(group({ external_peers: ['*'] })), r, f, dialectOf)).toBe('ok');
    expect(
      checkAnswerer(
        config(group({ external_peers: ['@alice'] })),
        r,
        from('telegram.ops', '100', undefined, '9', 'Alice'),
        dialectOf,
      ),
    ).toBe('ok');
    // Channel from one group, agent from another: not authorised.
    expect(
      checkAnswerer(
        config(group({ agents: ['other'] }), group({ channel: 'discord', agents: ['main'] })),
        r,
        f,
        dialectOf,
      ),
    ).toBe('unauthorised');
    expect(checkAnswerer(config(), r, f, dialectOf)).toBe('unauthorised');
  });

  it("takes a group's approvers instead of its external_peers when it has them (config.md §13)", () => {
    expect(checkAnswerer(config(group({ approvers: ['43'] })), r, f, dialectOf)).toBe('unauthorised');
    expect(checkAnswerer(config(group({ external_peers: [], approvers: ['42'] })), r, f, dialectOf)).toBe(
      'ok',
    );
    expect(checkAnswerer(config(group({ external_peers: [], approvers: [] })), r, f, dialectOf)).toBe(
      'unauthorised',
    );
    // Another group without approvers still lets its external_peers answer (back-compat).
    expect(
      checkAnswerer(config(group({ approvers: ['43'] }), group({ channel: 'telegram' })), r, f, dialectOf),
    ).toBe('ok');
  });

  it('refuses the requester of a routed approval, on any alias of the same platform, whatever the groups say', () => {
    const routed = { ...r, requester: { channel: 'telegram.dm', user: '42' } };
    expect(checkAnswerer(config(group({ external_peers: ['*'] })), routed, f, dialectOf)).toBe('requester');
    const other = { ...r, requester: { channel: 'telegram.dm', user: '41' } };
    expect(checkAnswerer(config(group({})), other, f, dialectOf)).toBe('ok');
    const elsewhere = { ...r, requester: { channel: 'discord.main', user: '42' } };
    expect(checkAnswerer(config(group({})), elsewhere, f, dialectOf)).toBe('ok');
  });

  it('checks the chat before the user', () => {
    expect(checkAnswerer(config(group({})), r, from('telegram.ops', '999'), dialectOf)).toBe('wrong_chat');
  });
});

describe('refusal texts', () => {
  it('are the spec texts verbatim, from the catalog', () => {
    expect(latePressText()).toBe('⚠️ This approval request has expired or was already decided.');
    expect(unauthorisedText()).toBe('⚠️ You are not authorized to answer this approval request.');
  });

  it('can be localised by a catalog override; the prefix stays', () => {
    const cat = createCatalog('en', 'approval-late-press = Zu spät.\napproval-unauthorised = Nicht erlaubt.');
    expect(latePressText(cat)).toBe('⚠️ Zu spät.');
    expect(unauthorisedText(cat)).toBe('⚠️ Nicht erlaubt.');
  });
});
