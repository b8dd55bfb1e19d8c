// applyDelegationPolicyMode on a real file and real Redis: validated by the loader (errors leave the file
// untouched), written atomically with its mode kept, concurrent edits all land, then the deployment reloads.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { editHasErrors } from '../../../src/config/edit-messages.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { applyDelegationPolicyMode } from '../../../src/fleet/config-file-edit.ts';
import { listenForReloads } from '../../../src/fleet/reload-bus.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';

const redis = testRedis();
const subscriber = testRedis();
const prefix = uniquePrefix('edit-file');
const dir = mkdtempSync(join(tmpdir(), 'baton-edit-file-'));
const path = join(dir, 'baton.toml');
const PROFILES = ['a', 'b', 'c', 'd', 'e', 'f'];

const TEXT = `# deployment config — comments stay
[redis]
prefix = "${prefix}"

${PROFILES.map((p) => `[risk_profiles.${p}]  # profile ${p}\nlevel = "supervised"\n`).join('\n')}
[agents.main]
model_provider = "custom.m"
risk_profile = "a"   # keep
`;

const modeOf = (text: string, p: string) =>
  (parse(text) as { risk_profiles: Record<string, { delegation_policy?: { mode: string } }> }).risk_profiles[
    p
  ]?.delegation_policy?.mode;

afterAll(async () => {
  subscriber.disconnect();
  await deletePrefix(redis, prefix);
  await redis.quit();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  writeFileSync(path, TEXT);
  chmodSync(path, 0o640);
});

describe('applyDelegationPolicyMode', () => {
  it('writes the one change, keeps the file mode, and asks the deployment to reload', async () => {
    let reloads = 0;
    const stop = await listenForReloads({
      subscriber,
      publisher: redis,
      prefix,
      process: 'p1',
      role: 'worker',
      logger: createSilentLogger(),
      reload: async () => {
        reloads++;
        return {
          ok: true,
          changed: ['risk_profiles.b.delegation_policy.mode'],
          restart_only: [],
          errors: [],
        };
      },
    });
    const res = await applyDelegationPolicyMode(path, 'b', 'allow', { redis, prefix, env: {} });
    await stop();
    expect(res).toMatchObject({ ok: true, changed: true, reload: { reached: 1 } });
    expect(res.ok && res.reload.acks.map((a) => a.process)).toEqual(['p1']);
    expect(reloads).toBe(1);
    const text = readFileSync(path, 'utf8');
    expect(text).toBe(
      TEXT.replace(
        '[risk_profiles.b]  # profile b\nlevel = "supervised"\n',
        '[risk_profiles.b]  # profile b\nlevel = "supervised"\ndelegation_policy = { mode = "allow" }\n',
      ),
    );
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir)).toEqual(['baton.toml']); // no temp or lock file left
  });

  it('refuses a result the loader rejects, with its diagnostics, and leaves the file untouched', async () => {
    const broken = TEXT.replace('level = "supervised"', 'level = "read_only"');
    writeFileSync(path, broken);
    const res = await applyDelegationPolicyMode(path, 'b', 'allow', { redis, prefix, env: {} });
    expect(res).toMatchObject({ ok: false, error: editHasErrors });
    expect(!res.ok && res.diagnostics.map((d) => d.message)).toContain(
      `Invalid config at 'risk_profiles.a.level': expected one of "readonly", "supervised", "full", found "read_only"`,
    );
    expect(readFileSync(path, 'utf8')).toBe(broken);
  });

  it('loses no change when several edits run at once', async () => {
    const results = await Promise.all(
      PROFILES.map((p) =>
        applyDelegationPolicyMode(path, p, 'allow', { redis, prefix, env: {}, reloadTimeoutMs: 50 }),
      ),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    const text = readFileSync(path, 'utf8');
    for (const p of PROFILES) expect(modeOf(text, p)).toBe('allow');
    expect(text.split('\n').filter((l) => l.startsWith('#') || l.includes('# '))).toEqual(
      TEXT.split('\n').filter((l) => l.startsWith('#') || l.includes('# ')),
    );
  });
});
