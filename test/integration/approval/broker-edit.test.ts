// A decision's card edit takes the outbox like every other card edit: the broker asks the channel's holder for it
// and answers the presser at once; the holder renders the decided card from the record (README "Architecture").
import { afterAll, describe, expect, it } from 'vitest';
import { createApprovalStore } from '../../../src/approval/approval-store.ts';
import type { Recipient } from '../../../src/channel-host/types.ts';
import { createApprovalBroker } from '../../../src/chat-actions/approval-broker.ts';
import { dialectOf } from '../../../src/roles/platforms.ts';
import { capturingLogger } from '../../helpers/providers.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { newApproval } from './helpers.ts';

const prefix = uniquePrefix('approval-broker-edit');
const redis = testRedis();
const { logger } = capturingLogger();
const store = createApprovalStore({ redis, prefix, logger });
const edits: { channel: string; id: string; to: Recipient }[] = [];
const replies: string[] = [];
const broker = createApprovalBroker({
  config: {
    peer_groups: { ops: { name: 'ops', channel: 'telegram', agents: ['main'], external_peers: ['42'] } },
  },
  store,
  delivery: { edit: async (channel, id, to) => void edits.push({ channel, id, to }) },
  dialectOf,
  outbox: { enqueue: async (_to, msg) => void replies.push(msg.text) },
  logger,
});

afterAll(async () => {
  await deletePrefix(redis, prefix);
  await redis.quit();
});

describe('the broker after a decision', () => {
  it('a press: the ack for the presser, one edit request for the card, the operator on the record', async () => {
    const rec = await store.createPendingApproval(newApproval({ destination: { chat: '100', thread: '5' } }));
    const res = await broker.handle({
      kind: 'action',
      channel: 'telegram.ops',
      eventId: 'e1',
      chat: '100',
      thread: '5',
      sender: { id: '42', username: 'alice' },
      actionId: `approval:${rec.approval_id}:approve`,
      messageId: '1',
      receivedAt: new Date().toISOString(),
    });
    expect(res).toEqual({ notice: '✅ Approved' });
    expect(edits).toEqual([
      {
        channel: 'telegram.ops',
        id: rec.approval_id,
        to: { channel: 'telegram.ops', chat: '100', thread: '5' },
      },
    ]);
    expect((await store.get(rec.approval_id))?.decided_by).toMatchObject({ user: '42', name: 'alice' });
  });

  it('a refused press asks for no edit', async () => {
    edits.length = 0;
    const rec = await store.createPendingApproval(newApproval());
    await broker.handle({
      kind: 'action',
      channel: 'telegram.ops',
      eventId: 'e2',
      chat: '100',
      sender: { id: '7' },
      actionId: `approval:${rec.approval_id}:deny`,
      messageId: '2',
      receivedAt: new Date().toISOString(),
    });
    expect(edits).toEqual([]);
  });

  it('a token reply: answered in the chat, and the card edit requested', async () => {
    edits.length = 0;
    const rec = await store.createPendingApproval(newApproval());
    const consumed = await broker.reply({
      kind: 'message',
      channel: 'telegram.ops',
      eventId: 'e3',
      chat: '100',
      sender: { id: '42' },
      text: `${rec.reply_token} no`,
      isDirect: false,
      addressedToBot: false,
      receivedAt: new Date().toISOString(),
    });
    expect(consumed).toBe(true);
    expect(replies.at(-1)).toBe('❌ Denied');
    expect(edits.map((e) => e.id)).toEqual([rec.approval_id]);
  });
});
