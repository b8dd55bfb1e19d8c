// `baton web add-user` as a real process: it writes a loadable entry whose secret it printed once, and the entry
// signs in (the hash verifies); a second run for the same login is refused.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../src/config/index.ts';
import { verifyWebSecret } from '../../src/web/users/web-secret.ts';
import { runCli } from '../helpers/cli.ts';

describe('baton web add-user', () => {
  it('adds an operator with a generated secret, printed once; refuses the same login again', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'baton-cli-web-user-'));
    const file = join(dir, 'baton.toml');
    await writeFile(file, 'schema_version = 3\n\n[risk_profiles.p]\n\n[agents.a]\nrisk_profile = "p"\n');
    const res = await runCli(['web', 'add-user', 'erin', '--operator', '-c', file]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const secret = /^secret: (\S+)$/m.exec(res.stdout)?.[1] ?? '';
    expect(secret.length).toBeGreaterThanOrEqual(20);
    expect(await readFile(file, 'utf8')).not.toContain(secret);
    const entry = (await loadConfigFile(file, {})).config?.gateway.web_users?.erin;
    expect(entry?.operator).toBe(true);
    expect(await verifyWebSecret(secret, entry?.secret_hash)).toBe(true);
    const again = await runCli(['web', 'add-user', 'erin', '-c', file]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('gateway.web_users.erin already exists');
  });
});
