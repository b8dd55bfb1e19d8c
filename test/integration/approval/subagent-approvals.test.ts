// A prompt asked inside a spawn_subagent child (approvals.md §5: a fresh gate built like its parent's) is the
// child's: its record in Redis carries the child's run_id, under the parent turn's root_run_id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApprovalStore } from '../../../src/approval/approval-store.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createTaskRecords } from '../../../src/delegation/task-records.ts';
import { createRuntimeHarness, localPeers, type RuntimeHarness } from '../../helpers/runtime-harness.ts';
import { fakeModelAgentToml } from '../../helpers/test-config.ts';
import { cardIn, press, replyIn, writeCall } from './approval-helpers.ts';

const TOML = `${fakeModelAgentToml(`\${MODEL_URI}`).replace(
  '[risk_profiles.default]\n',
  '[risk_profiles.default]\nauto_approve = ["spawn_subagent"]\n',
)}${localPeers(['alice'])}`;

let h: RuntimeHarness;
beforeAll(async () => {
  h = await createRuntimeHarness('subagent-approvals', TOML);
});
afterAll(() => h.close());

describe('approvals inside a spawn_subagent child', () => {
  it("the approval record carries the child's run_id and the parent's root_run_id", async () => {
    h.server.script([
      { toolCalls: [{ id: 's1', name: 'spawn_subagent', arguments: { prompt: 'write it' } }] },
      writeCall('child.txt'),
      { text: 'child done' },
      { text: 'done' },
    ]);
    await h.local.inject({ chat: 'sa1', text: 'go', senderId: 'alice' });
    const card = await cardIn(h, 'sa1');
    expect(card.text).toContain('Tool: file_write');
    const approvalId = card.versions[0]!.buttons!.flat()[0]!.id.split(':')[1]!;
    await press(h, card, 'approve', 'alice');
    await replyIn(h, 'sa1', 'done');

    const store = createApprovalStore({ redis: h.redis, prefix: h.prefix, logger: createSilentLogger() });
    const rec = await store.get(approvalId); // decoded through the record schema: null if it does not validate
    expect(rec).not.toBeNull();
    expect(rec!.status).toBe('approved');
    expect(rec!.run_id).not.toBe(rec!.root_run_id);
    // The child run is the subagent task the parent's spawn_subagent call recorded.
    const child = await createTaskRecords(h.redis, h.prefix).get(rec!.run_id);
    expect(child).toMatchObject({
      kind: 'subagent',
      agent: 'main',
      status: 'completed',
      output: 'child done',
    });
  });
});
