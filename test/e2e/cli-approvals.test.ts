// `baton approvals list [--audit]` as a real process against real Redis, records written by the real store.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApprovalStore } from '../../src/approval/approval-store.ts';
import { createSilentLogger } from '../../src/core/logger.ts';
import { runCli } from '../helpers/cli.ts';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../helpers/redis.ts';
import { newApproval } from '../integration/approval/helpers.ts';

const prefix = uniquePrefix('cli-approvals');
const redis = testRedis();
const store = createApprovalStore({ redis, prefix, logger: createSilentLogger() });
const iso = (ms: number) => new Date(ms).toISOString();
let dir: string;
let cfg: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-cli-approvals-'));
  cfg = join(dir, 'baton.toml');
  writeFileSync(
    cfg,
    `schema_version = 3\n\n[redis]\nurl = "${REDIS_URL}"\nprefix = "${prefix}"\n\n[gateway]\ndata_dir = "${dir}"\n`,
  );
});
afterAll(async () => {
  await deletePrefix(redis, prefix);
  await redis.quit();
  rmSync(dir, { recursive: true, force: true });
});

describe('baton approvals list', () => {
  it('says so when nothing is pending or settled', async () => {
    const pending = await runCli(['approvals', 'list', '-c', cfg]);
    expect(pending.stderr).toBe('');
    expect(pending).toMatchObject({ code: 0, stdout: 'No pending approvals.\n' });
    const audit = await runCli(['approvals', 'list', '--audit', '-c', cfg]);
    expect(audit).toMatchObject({ code: 0, stdout: 'No settled approvals in the last 7 days.\n' });
  });

  it('prints pending approvals, then the audit trail once decided, without raw arguments', async () => {
    const a = await store.createPendingApproval(newApproval());
    const b = await store.createPendingApproval(
      newApproval({ tool: 'file_write', args: {}, agent: 'coder', caller: 'main', runId: 'run-2' }),
    );
    const res = await runCli(['approvals', 'list', '-c', cfg]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const blockA = [
      `${a.approval_id}  pending  shell`,
      '  agent: main',
      '  args: command: rm -rf /tmp/x, api_key: [redacted]',
      '  destination: telegram.ops 100',
      '  run: run-1',
      `  created: ${iso(a.created_at)}  expires: ${iso(a.expires_at)}`,
      '',
    ];
    const blockB = [
      `${b.approval_id}  pending  file_write`,
      '  agent: coder (delegated by main)',
      '  args: (none)',
      '  destination: telegram.ops 100',
      '  run: run-2',
      `  created: ${iso(b.created_at)}  expires: ${iso(b.expires_at)}`,
      '',
    ];
    // Oldest first; two records created in the same millisecond come in id order (the pending set's tie rule).
    const aFirst =
      a.created_at < b.created_at || (a.created_at === b.created_at && a.approval_id < b.approval_id);
    expect(res.stdout).toBe((aFirst ? [...blockA, ...blockB] : [...blockB, ...blockA]).join('\n'));
    expect(res.stdout).not.toContain('sk-raw-secret-value');

    await store.decide(a.approval_id, 'deny', { channel: 'telegram.ops', user: '42' });
    const decided = (await store.get(a.approval_id))!;
    const audit = await runCli(['approvals', 'list', '--audit', '-n', '5', '-c', cfg]);
    expect(audit.code).toBe(0);
    expect(audit.stdout).toBe(
      [
        `${a.approval_id}  denied  shell`,
        '  agent: main',
        '  args: command: rm -rf /tmp/x, api_key: [redacted]',
        '  destination: telegram.ops 100',
        '  run: run-1',
        `  created: ${iso(a.created_at)}  expires: ${iso(a.expires_at)}`,
        `  decided: ${iso(decided.decided_at!)}  source: operator  by: telegram.ops:42`,
        '',
      ].join('\n'),
    );
    const still = await runCli(['approvals', 'list', '-c', cfg]);
    expect(still.stdout).not.toContain(a.approval_id);
    expect(still.stdout).toContain(b.approval_id);
  });

  it('refuses a bad count', async () => {
    const res = await runCli(['approvals', 'list', '-n', '0', '-c', cfg]);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe('error: -n <count> must be an integer from 1 to 1000\n');
  });
});
