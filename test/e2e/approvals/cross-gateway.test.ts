// Two `baton gateway`s and one `baton worker` (approvals.md §10-§12): the card is posted by whichever gateway's
// pump takes it, presses reach either gateway, exactly one decision counts, and nothing forged or late runs the tool.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { DENIED_BY_USER } from '../../../src/approval/approval-messages.ts';
import type { ApprovalRecord } from '../../../src/approval/record.ts';
import {
  type Card,
  createOpsLane,
  DEV_ROOM,
  LATE,
  MALLORY,
  OPS_LEAD,
  OPS_PEER,
  type OpsLane,
  UNAUTHORISED,
} from './ops-lane.ts';

const ALICE = 'U0ALICE';
let lane: OpsLane;
beforeAll(async () => {
  lane = await createOpsLane('ap-cross', 2);
}, 60_000);
afterAll(() => lane?.close());

/** The gateway that did not post the card. */
const otherThan = (card: Card) => lane.gateways.findIndex((g) => g.botToken !== card.postedWith);
/** The decision part of a record (the heartbeat moves on its own while the waiter waits). */
const decisionOf = (r: ApprovalRecord | null) =>
  r && { status: r.status, source: r.source, decided_by: r.decided_by, decided_at: r.decided_at };
/** The run's final reply in the dev room: the model was told the result and answered. */
const finished = (tag: string) =>
  lane.slack.waitFor(
    () => lane.slack.messages.some((m) => m.channel === DEV_ROOM && m.text === `done ${tag}`),
    `the run of ${tag} to finish`,
    30_000,
  );

describe('approvals across gateway and worker processes', { timeout: 60_000 }, () => {
  it('a press on the gateway that did not post the card runs the tool once; the model is told its output', async () => {
    onTestFailed(() => console.log(lane.dump()));
    await lane.ask('cross');
    const card = await lane.card('cross');
    // Both gateways run the Slack channel; the bot token of the recorded chat.postMessage names the poster.
    expect(lane.gateways.map((g) => g.botToken)).toContain(card.postedWith);
    const since = lane.slack.calls.length;
    expect(await lane.press(otherThan(card), card, 'approve')).toBe(200);
    expect(await lane.ephemerals(OPS_LEAD, since, 1)).toEqual(['✅ Approved']);
    const ack = lane.slack.calls.slice(since).find((c) => c.method === 'chat.postEphemeral');
    expect(ack?.token).not.toBe(card.postedWith);
    const told = await lane.toldModel('cross');
    const file = /cross\.[A-Za-z0-9]{6}/.exec(told)?.[0];
    expect(file, told).toBeDefined();
    await finished('cross');
    expect(lane.ran('cross')).toBe(1);
    expect(lane.toolResults('cross')).toEqual([told]);
    expect(await lane.store.get(card.approvalId)).toMatchObject({
      status: 'approved',
      source: 'operator',
      decided_by: { channel: 'slack.ops', user: OPS_LEAD },
    });
  });

  it.each([
    ['approve', 'deny'],
    ['approve', 'approve'],
  ] as const)(
    'presses at the same instant on both gateways (%s on A, %s on B): one wins, the other is late',
    async (a, b) => {
      onTestFailed(() => console.log(lane.dump()));
      const tag = `race${a}${b}`;
      await lane.ask(tag);
      const card = await lane.card(tag);
      const since = lane.slack.calls.length;
      // The ops peer presses on gateway 0, the ops lead on gateway 1: each one's ephemeral says whose press counted.
      await Promise.all([lane.press(0, card, a, { user: OPS_PEER }), lane.press(1, card, b)]);
      const [toPeer] = await lane.ephemerals(OPS_PEER, since, 1);
      const [toLead] = await lane.ephemerals(OPS_LEAD, since, 1);
      const ack = { approve: '✅ Approved', deny: '❌ Denied' };
      const peerWon = toPeer !== LATE;
      expect(peerWon ? [toPeer, toLead] : [toLead, toPeer]).toEqual([ack[peerWon ? a : b], LATE]);
      const won = peerWon ? a : b;
      const told = await lane.toldModel(tag);
      await finished(tag);
      expect(await lane.store.get(card.approvalId)).toMatchObject({
        status: won === 'approve' ? 'approved' : 'denied',
        decided_by: { channel: 'slack.ops', user: peerWon ? OPS_PEER : OPS_LEAD },
      });
      if (won === 'deny') expect(told).toContain(DENIED_BY_USER);
      else expect(told).toMatch(new RegExp(`${tag}\\.[A-Za-z0-9]{6}`));
      expect(lane.ran(tag)).toBe(won === 'approve' ? 1 : 0);
      expect(lane.toolResults(tag)).toEqual([told]);
    },
  );

  it('forged, foreign, unauthorised and replayed presses neither run the tool nor change the record', async () => {
    onTestFailed(() => console.log(lane.dump()));
    await lane.ask('forge');
    const card = await lane.card('forge');
    const before = decisionOf(await lane.store.get(card.approvalId));
    expect(before).toMatchObject({ status: 'pending' });
    /** One press on gateway `g`; resolves with the text its presser was shown. */
    const shown = async (g: number, o: Parameters<OpsLane['press']>[3], user = OPS_LEAD) => {
      const since = lane.slack.calls.length;
      expect(await lane.press(g, card, 'approve', { ...o, user })).toBe(200);
      return (await lane.ephemerals(user, since, 1))[0];
    };
    expect(await shown(0, { value: randomUUID() }), 'a guessed approval id').toBe(LATE);
    expect(await shown(1, { actionId: 'approval_zzzzzz_approve' }), 'another token').toBe(LATE);
    expect(await shown(0, { actionId: `approval_${card.token}_nuke` }), 'an unknown action').toBe(
      '⚠️ Unknown action',
    );
    expect(await shown(1, { channel: DEV_ROOM }), 'from another chat').toBe(UNAUTHORISED);
    expect(await shown(0, { alias: 'other' }), 'from another channel').toBe(UNAUTHORISED);
    expect(await shown(1, {}, MALLORY), 'by an unauthorised user').toBe(UNAUTHORISED);
    expect(await shown(0, {}, ALICE), 'by the requester, a peer of the group').toBe(UNAUTHORISED);
    expect(decisionOf(await lane.store.get(card.approvalId))).toEqual(before);
    expect(lane.ran('forge')).toBe(0);
    expect(lane.toolResults('forge')).toEqual([]);

    expect(await shown(1, {})).toBe('✅ Approved');
    await finished('forge');
    const decided = decisionOf(await lane.store.get(card.approvalId));
    expect(decided).toMatchObject({
      status: 'approved',
      decided_by: { channel: 'slack.ops', user: OPS_LEAD },
    });
    expect(await shown(1, {}), 'the winning press replayed').toBe(LATE);
    expect(await shown(0, {}), 'the winning press on the other gateway').toBe(LATE);
    expect(decisionOf(await lane.store.get(card.approvalId))).toEqual(decided);
    expect(lane.ran('forge')).toBe(1);
    expect(lane.toolResults('forge')).toHaveLength(1);
  });
});
