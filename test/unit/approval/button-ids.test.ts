// Approval button data (approvals.md §11, §12.2–§12.4): round trips, and tampered data reads as null.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { discordCustomId } from '../../../channels/discord/approval-card.ts';
import { slackActionId } from '../../../channels/slack/approval-card.ts';
import { telegramCallbackData } from '../../../channels/telegram/approval-card.ts';
import type { ApprovalAction } from '../../../src/channel-host/approval-card.ts';
import { dialectOf } from '../../../src/roles/platforms.ts';

const ID = randomUUID();
const ACTIONS: ApprovalAction[] = ['approve', 'always', 'deny'];

describe('round trips', () => {
  it.each(ACTIONS)('telegram %s', (action) => {
    const data = telegramCallbackData(ID, action);
    expect(data).toBe(`approval:${ID}:${action}`);
    expect(Buffer.byteLength(data)).toBeLessThanOrEqual(64);
    expect(dialectOf('telegram').parseApprovalPress(data)).toEqual({ approvalId: ID, action });
  });

  it.each([
    ['0', 'deny'],
    ['1', 'approve'],
    ['2', 'always'],
    ['3', 'always'],
  ] as const)('discord n=%s → %s', (n, action) => {
    expect(dialectOf('discord').parseApprovalPress(discordCustomId(ID, n))).toEqual({
      approvalId: ID,
      action,
    });
  });

  it.each(ACTIONS)('slack %s: token from the action_id, approval id from the value', (action) => {
    const actionId = slackActionId('ab12cd', action);
    expect(actionId).toBe(`approval_ab12cd_${action}`);
    expect(dialectOf('slack').parseApprovalPress(actionId, ID)).toEqual({
      approvalId: ID,
      action,
      token: 'ab12cd',
    });
  });
});

describe('tampered or foreign data is null, never a throw', () => {
  const long = `approval:${ID}:approve${'x'.repeat(64)}`;
  it.each([
    ['telegram', ''],
    ['telegram', long],
    ['telegram', `approval:${ID}:maybe`],
    ['telegram', `approval:${ID}:Approve`],
    ['telegram', `approval:${ID}:approve:extra`],
    ['telegram', `approval::${ID}:approve`],
    ['telegram', `approval:${ID}::approve`],
    ['telegram', `approval:${ID}`],
    ['telegram', 'approval:not-a-uuid:approve'],
    ['telegram', `approval:${ID.toUpperCase()}:approve`],
    ['telegram', 'approval:3f0c9a52-8d1e-1b6a-9c2f-0123456789ab:approve'], // UUID v1, not v4
    ['telegram', `approval: ${ID}:approve`],
    ['telegram', `apv:${ID}:1`],
    ['telegram', `Approval:${ID}:approve`],
    ['discord', `apv:${ID}:4`],
    ['discord', `apv:${ID}:01`],
    ['discord', `apv:${ID}:approve`],
    ['discord', `apv:${ID}:constructor`],
    ['discord', `apv:${ID}:1:1`],
    ['discord', `apv:${ID}`],
    ['discord', `approval:${ID}:approve`],
    ['discord', 'apv:123:1'],
    ['slack', 'approval_ab12cd_maybe'],
    ['slack', 'approval_ab12c_approve'],
    ['slack', 'approval_ab12cde_approve'],
    ['slack', 'approval_AB12CD_approve'],
    ['slack', 'approval_ab12cd_approve_x'],
    ['slack', 'approval__ab12cd_approve'],
    ['slack', `approval:${ID}:approve`],
  ] as const)('%s %j', (platform, data) => {
    expect(dialectOf(platform).parseApprovalPress(data, ID)).toBeNull();
  });

  it('slack without a value, or with a value that is no approval id', () => {
    expect(dialectOf('slack').parseApprovalPress('approval_ab12cd_approve')).toBeNull();
    expect(
      dialectOf('slack').parseApprovalPress('approval_ab12cd_approve', 'approval_ab12cd_approve'),
    ).toBeNull();
    expect(dialectOf('slack').parseApprovalPress('approval_ab12cd_approve', `${ID} `)).toBeNull();
  });

  it('non-string input', () => {
    expect(dialectOf('telegram').parseApprovalPress(undefined as unknown as string)).toBeNull();
    expect(
      dialectOf('slack').parseApprovalPress(42 as unknown as string, {} as unknown as string),
    ).toBeNull();
  });
});

describe('isApprovalButton: which data is an approval at all', () => {
  it('by namespace', () => {
    expect(dialectOf('telegram').isApprovalButton('approval:junk')).toBe(true);
    expect(dialectOf('telegram').isApprovalButton('menu:1')).toBe(false);
    expect(dialectOf('discord').isApprovalButton('apv:x:9')).toBe(true);
    expect(dialectOf('discord').isApprovalButton('approval:x')).toBe(false);
    expect(dialectOf('slack').isApprovalButton('approval_x')).toBe(true);
    expect(dialectOf('slack').isApprovalButton('other_action')).toBe(false);
  });
});
