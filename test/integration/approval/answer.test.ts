// A press or token reply end to end at the gateway (approvals.md §10 lifecycle 7, §11, §12.5), real Redis.
import { afterAll, describe, expect, it } from 'vitest';
import { answerApproval, findReplyTarget } from '../../../src/approval/answer.ts';
import { createApprovalStore } from '../../../src/approval/approval-store.ts';
import { dialectOf } from '../../../src/roles/platforms.ts';
import { capturingLogger } from '../../helpers/providers.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { newApproval } from './helpers.ts';

const LATE = '⚠️ This approval request has expired or was already decided.';
const UNAUTHORISED = '⚠️ You are not authorized to answer this approval request.';

const prefix = uniquePrefix('approval-answer');
const admin = testRedis();
const workerConn = testRedis();
const gatewayConn = testRedis();
const { logger, lines } = capturingLogger();
const worker = createApprovalStore({ redis: workerConn, prefix, logger });
const store = createApprovalStore({ redis: gatewayConn, prefix, logger });
const config = {
  peer_groups: {
    ops: { name: 'ops', channel: 'telegram', agents: ['coder'], external_peers: ['42'] },
    slack: { name: 'slack', channel: 'slack.team', agents: ['coder'], external_peers: ['*'] },
  },
};
const deps = { store, config, logger, dialectOf };
const from = (user: string, chat = '100', thread?: string, channel = 'telegram.ops') => ({
  channel,
  chat,
  thread,
  sender: { id: user },
});

afterAll(async () => {
  await deletePrefix(admin, prefix);
  for (const r of [admin, workerConn, gatewayConn]) await r.quit();
});

describe('answering a press', () => {
  it('refuses an unauthorised user with the verbatim text, logs the user id, and changes nothing', async () => {
    const rec = await worker.createPendingApproval(newApproval({ agent: 'coder', caller: 'main' }));
    expect(await answerApproval(deps, rec.approval_id, 'approve', from('7'))).toEqual({
      kind: 'unauthorised',
      text: UNAUTHORISED,
    });
    expect((await store.get(rec.approval_id))?.status).toBe('pending');
    const warn = lines.map((l) => JSON.parse(l)).find((l) => l.approval_id === rec.approval_id);
    expect(warn).toMatchObject({ level: 40, user_id: '7', check: 'unauthorised' });
  });

  it('refuses a press from another chat as unauthorised', async () => {
    const rec = await worker.createPendingApproval(newApproval({ agent: 'coder' }));
    expect((await answerApproval(deps, rec.approval_id, 'approve', from('42', '999'))).kind).toBe(
      'unauthorised',
    );
    expect((await store.get(rec.approval_id))?.status).toBe('pending');
  });

  it('decides for an authorised user; the next press gets the late-press text verbatim', async () => {
    const rec = await worker.createPendingApproval(newApproval({ agent: 'coder' }));
    const first = await answerApproval(deps, rec.approval_id, 'always', from('42'));
    expect(first).toMatchObject({ kind: 'decided', status: 'always' });
    expect(await store.get(rec.approval_id)).toMatchObject({
      status: 'always',
      decided_by: { channel: 'telegram.ops', user: '42' },
    });
    expect(await answerApproval(deps, rec.approval_id, 'deny', from('42'))).toEqual({
      kind: 'late',
      reason: 'not_pending',
      text: LATE,
    });
  });

  it('answers an unknown or tampered id with the late-press text', async () => {
    for (const id of [crypto.randomUUID(), 'approval:../../x']) {
      expect(await answerApproval(deps, id, 'approve', from('42'))).toEqual({
        kind: 'late',
        reason: 'unknown',
        text: LATE,
      });
    }
  });
});

describe('token replies (text mode)', () => {
  it('finds the record for its chat only; Telegram needs the same thread, Slack any thread of the channel', async () => {
    const tg = await worker.createPendingApproval(
      newApproval({ agent: 'coder', destination: { chat: '100', thread: '5' } }),
    );
    expect(
      (await findReplyTarget(deps, from('42', '100', '5'), tg.reply_token.toUpperCase()))?.approval_id,
    ).toBe(tg.approval_id);
    expect(await findReplyTarget(deps, from('42', '100'), tg.reply_token)).toBeNull();
    expect(await findReplyTarget(deps, from('42', '101', '5'), tg.reply_token)).toBeNull();

    const sl = await worker.createPendingApproval(
      newApproval({ agent: 'coder', channel: 'slack.team', destination: { chat: 'C1', thread: '1.5' } }),
    );
    const target = await findReplyTarget(deps, from('U9', 'C1', undefined, 'slack.team'), sl.reply_token);
    expect(target?.approval_id).toBe(sl.approval_id);
    expect(
      await answerApproval(deps, target!, 'approve', from('U9', 'C1', undefined, 'slack.team')),
    ).toMatchObject({
      kind: 'decided',
      status: 'approved',
    });
  });
});
