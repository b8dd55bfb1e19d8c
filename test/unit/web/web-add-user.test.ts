// `baton web add-user`: the entry it writes loads, keeps every comment, verifies the secret, and refuses bad input.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addWebUserCommand } from '../../../src/cli/web-user-command.ts';
import { loadConfigFile } from '../../../src/config/index.ts';
import { verifyWebSecret } from '../../../src/web/users/web-secret.ts';

const BASE = `schema_version = 3 # the file's own comment

[gateway]
api_token = "a-long-enough-token" # kept

[risk_profiles.p]

[agents.a]
risk_profile = "p"
`;

async function run(login: string | undefined, secret: string | undefined, operator = false, text = BASE) {
  const dir = await mkdtemp(join(tmpdir(), 'baton-add-user-'));
  const configPath = join(dir, 'baton.toml');
  await writeFile(configPath, text);
  const out: string[] = [];
  const err: string[] = [];
  const code = await addWebUserCommand(
    { configPath, login, operator, readSecret: async () => secret },
    { out: (t) => out.push(t), err: (t) => err.push(t), env: {} },
  );
  return { code, out, err, configPath, text: await readFile(configPath, 'utf8') };
}

describe('baton web add-user', () => {
  it('appends a hashed entry that loads and verifies; the piped secret is never printed', async () => {
    const r = await run('alice', 'piped secret of alice', true);
    expect(r.code).toBe(0);
    expect(r.text.startsWith(BASE)).toBe(true);
    expect(r.text).not.toContain('piped secret');
    expect(r.out.join('\n')).not.toContain('piped secret');
    const loaded = await loadConfigFile(r.configPath, {});
    expect(loaded.diagnostics).toEqual([]);
    const entry = loaded.config?.gateway.web_users?.alice;
    expect(entry?.operator).toBe(true);
    expect(await verifyWebSecret('piped secret of alice', entry?.secret_hash)).toBe(true);
    expect(await verifyWebSecret('piped secret of alicf', entry?.secret_hash)).toBe(false);
  });

  it('generates a secret at a terminal and prints it once', async () => {
    const r = await run('bob', undefined);
    expect(r.code).toBe(0);
    const line = r.out.find((l) => l.startsWith('secret: '));
    const secret = line?.slice('secret: '.length) ?? '';
    expect(secret.length).toBeGreaterThanOrEqual(20);
    const loaded = await loadConfigFile(r.configPath, {});
    const entry = loaded.config?.gateway.web_users?.bob;
    expect(entry?.operator).toBe(false);
    expect(await verifyWebSecret(secret, entry?.secret_hash)).toBe(true);
  });

  it('refuses a bad or reserved login, a short secret, and an existing user, leaving the file alone', async () => {
    for (const login of ['Alice', 'operator', 'local', '../x', undefined]) {
      const r = await run(login, 'long enough secret');
      expect(r.code).toBe(2);
      expect(r.text).toBe(BASE);
    }
    expect((await run('carol', 'short')).code).toBe(2);
    const first = await run('dave', 'long enough secret');
    const again = await run('dave', 'another long secret', false, first.text);
    expect(again.code).toBe(1);
    expect(again.err.join('\n')).toContain('gateway.web_users.dave already exists');
    expect(again.text).toBe(first.text);
  });
});
