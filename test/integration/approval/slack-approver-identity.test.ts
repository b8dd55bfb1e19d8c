// Who presses a Slack approval button is their user id, never their username (config.md §13, approvals.md §11):
// a signed HTTP-mode press by a user whose username spells the approver's id is refused, and the card and the
// audit name the approver by id beside the username. The run starts on the local channel, the route asks Slack.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApprovalStore } from '../../../src/approval/approval-store.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { postSlackInteraction } from '../../fakes/slack-http.ts';
import { blockActions } from '../../fakes/slack-payloads.ts';
import { type FakeSlackServer, startFakeSlack } from '../../fakes/slack-server.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../../helpers/runtime-harness.ts';
import { scriptWrites, toldModel } from './approval-helpers.ts';

const SECRET = 'slack-signing-secret-identity';
const ROOM = 'C0OPSROOM';
const UNAUTHORISED = '⚠️ You are not authorized to answer this approval request.';

let fake: FakeSlackServer;
let h: RuntimeHarness;

beforeAll(async () => {
  fake = await startFakeSlack();
  const toml = runtimeToml(
    `
[channels.slack.ops]
enabled = true
bot_token = "xoxb-identity"
signing_secret = "${SECRET}"
api_base_url = "${fake.apiUrl}"

[risk_profiles.default.approval_route]
approver_channel = "slack.ops"
approver_recipient = "${ROOM}"
timeout_secs = 120
on_no_approver = "deny"

[peer_groups.approvers]
channel = "slack.ops"
agents = ["main"]
external_peers = ["UAPPROVER1"]
`,
    ['alice'],
  );
  h = await createRuntimeHarness('slack-approver-identity', toml, { platformChannels: true, ops: {} });
});
afterAll(async () => {
  await h?.close();
  await fake?.close();
});

type Block = { elements?: Array<{ action_id: string; value: string }> };

/** A signed interactivity POST: `user` presses `action` on the card, as Slack would deliver it. */
async function pressAs(user: string, username: string, action: string) {
  const card = fake.messages.find((m) => m.channel === ROOM)!;
  const button = (card.blocks as Block[])
    .flatMap((b) => b.elements ?? [])
    .find((e) => e.action_id.endsWith(`_${action}`))!;
  const payload = blockActions(
    { channel: ROOM, messageTs: card.ts, actionId: button.action_id, value: button.value, user, username },
    fake.apiUrl,
  );
  const res = await postSlackInteraction(`${h.opsUrl}/slack/ops/events`, SECRET, payload);
  expect(res.status).toBe(200);
  const notice = await fake.waitFor(
    () => fake.callsOf('chat.postEphemeral').find((c) => c.params.user === user),
    `the notice to ${user}`,
  );
  return { approvalId: button.value, text: notice.params.text };
}

describe('a Slack press is matched by user id', () => {
  it('refuses a user whose username equals the approver id; the approver decides, named by id', async () => {
    scriptWrites(h, 'identity.txt');
    await h.local.inject({ chat: 'dev', text: 'write it', senderId: 'alice' });
    await fake.waitForMessages(1, ROOM);

    const attack = await pressAs('UATTACK99', 'uapprover1', 'approve');
    expect(attack.text).toBe(UNAUTHORISED);
    const store = createApprovalStore({ redis: h.redis, prefix: h.prefix, logger: createSilentLogger() });
    expect((await store.get(attack.approvalId))?.status).toBe('pending');

    expect((await pressAs('UAPPROVER1', 'realops', 'approve')).text).toBe('✅ Approved');
    expect(await toldModel(h)).toMatch(/^Wrote 2 bytes to .*identity\.txt$/);
    const edited = await fake.waitFor(
      () => fake.callsOf('chat.update').find((c) => String(c.params.text).includes('Approved by')),
      'the card edited',
    );
    expect(String(edited.params.text)).toContain('✅ Approved by realops (UAPPROVER1)');
    expect((await store.get(attack.approvalId))?.decided_by).toEqual({
      channel: 'slack.ops',
      user: 'UAPPROVER1',
      name: 'realops',
    });
  });
});
