// After a deployment reload, the readers that outlive a turn read the config in effect, not the startup one:
// `/status` on the gateway (the model line) and the worker's approval asker (the channel's approval timeout).
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApprovalStore } from '../../../src/approval/approval-store.ts';
import { statusText } from '../../../src/channel-host/channel-messages.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createChannelPresence, type PresenceHold } from '../../../src/fleet/channel-presence.ts';
import { requestDeploymentReload } from '../../../src/fleet/reload-bus.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../../helpers/runtime-harness.ts';
import { waitFor } from '../../helpers/wait.ts';
import { writeCall } from '../approval/approval-helpers.ts';

// The route's ops room is a Telegram chat; no adapter runs here, the test holds its presence key (so the asker
// writes the record and its card goes to the channel's outbox, where nobody posts it).
const toml = (opts: { timeout: number; model: string }) =>
  runtimeToml(
    `
[risk_profiles.default.approval_route]
approver_channel = "telegram.ops"
approver_recipient = "-100"
timeout_secs = 600

[channels.telegram.ops]
enabled = true
bot_token = "t"
approval_timeout_secs = ${opts.timeout}
`,
    ['alice'],
  ).replace('model = "fake-model"', `model = "${opts.model}"`);

let h: RuntimeHarness;
let held: PresenceHold;
beforeAll(async () => {
  h = await createRuntimeHarness('reload-readers', toml({ timeout: 7, model: 'fake-model' }), {
    reloadable: true,
  });
  held = await createChannelPresence(h.redis, h.prefix, createSilentLogger()).hold('telegram.ops', 'test');
  writeFileSync(
    h.configPath!,
    h.configText
      .replace('approval_timeout_secs = 7', 'approval_timeout_secs = 3')
      .replace('model = "fake-model"', 'model = "fake-model-2"'),
  );
  const res = await requestDeploymentReload(h.redis, h.prefix);
  expect(res.acks.map((a) => a.ok)).toEqual([true]);
});
afterAll(async () => {
  await held.release();
  await h.close();
});

const say = (chat: string, text: string) => h.local.inject({ chat, text, senderId: 'alice' });

describe('after `baton reload`', () => {
  it('/status names the model of the reloaded config', async () => {
    await say('st1', '/status');
    const [status] = await h.local.waitForReplies(1, { chat: 'st1', timeoutMs: 10_000 });
    expect(status?.text).toBe(
      statusText({ agent: 'main', model: 'custom.fake (fake-model-2)', turnRunning: false, tasks: [] }),
    );
  });

  it("the worker's approval asker waits the reloaded channel's approval_timeout_secs", async () => {
    h.server.script([writeCall('r.txt'), { text: 'done' }]);
    await say('ap1', 'write it');
    const store = createApprovalStore({ redis: h.redis, prefix: h.prefix, logger: createSilentLogger() });
    await waitFor(async () => (await store.listPending()).length === 1, 10_000, 'the pending record');
    const recs = await store.listPending();
    // Read back through the record schema; the wait is min(route timeout_secs, channel approval_timeout_secs).
    expect(recs[0]).toMatchObject({ tool: 'file_write', channel: 'telegram.ops', route_prompt: true });
    expect(recs[0]!.expires_at - recs[0]!.created_at).toBe(3000);
    await say('ap1', '/stop');
    await waitFor(async () => (await store.listPending()).length === 0, 10_000, 'the approval cancelled');
  });
});
