// Ids used in paths, URLs and Redis keys (security review #9): `baton config check` names the TOML path of any
// alias outside the allowlist, the section is dropped, and the workspace builder refuses an escape on its own.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentCommand, BAD_SESSION_ID } from '../../../src/cli/agent-command.ts';
import { configCheck } from '../../../src/config/index.ts';
import { defaultWorkspacePath, WorkspacePathError } from '../../../src/config/workspace-path.ts';
import { configOf, load, MINIMAL } from './load-helper.ts';

async function check(text: string) {
  const dir = await mkdtemp(join(tmpdir(), 'baton-ids-'));
  const path = join(dir, 'baton.toml');
  await writeFile(path, text);
  const lines: string[] = [];
  const code = await configCheck(path, {}, (line) => lines.push(line));
  return { code, lines };
}

describe('config ids', () => {
  it('refuses an agent alias that would leave the data dir, naming its TOML path', async () => {
    const res = await check(`${MINIMAL}\n[agents."../../x"]\nrisk_profile = "p"\n`);
    expect(res.code).toBe(1);
    expect(res.lines).toContain(
      `Invalid config at 'agents."../../x"': agent alias must match [A-Za-z0-9_-]+`,
    );
    // The section is dropped (fails closed): no agent, so no workspace of it.
    expect(configOf(load(`${MINIMAL}\n[agents."../../x"]\nrisk_profile = "p"\n`)).agents).toEqual({});
  });

  it('checks every id kind that becomes a path, URL or key part', async () => {
    const res = await check(`${MINIMAL}
[channels.web."a/b"]
[channels.telegram."x:y"]
[cron."j 1"]
[risk_profiles."../p"]
[runtime_profiles."r.1"]
[peer_groups."g*"]
channel = "web"
[providers.models."cus/tom".ok]
[providers.models.custom."..up"]
[providers.models.custom."gpt-4.1"]
model = "m"
`);
    const reason = (kind: string) => `${kind} must match [A-Za-z0-9_-]+`;
    expect(res.code).toBe(1);
    expect(res.lines).toEqual(
      expect.arrayContaining([
        `Invalid config at 'channels.web."a/b"': ${reason('channel alias')}`,
        `Invalid config at 'channels.telegram."x:y"': ${reason('channel alias')}`,
        `Invalid config at 'cron."j 1"': ${reason('cron job alias')}`,
        `Invalid config at 'risk_profiles."../p"': ${reason('risk profile name')}`,
        `Invalid config at 'runtime_profiles."r.1"': ${reason('runtime profile name')}`,
        `Invalid config at 'peer_groups."g*"': ${reason('peer group name')}`,
        `Invalid config at 'providers.models."cus/tom"': ${reason('provider type')}`,
        `Invalid config at 'providers.models.custom."..up"': provider alias must match [A-Za-z0-9_-]+ (dots only between such parts)`,
      ]),
    );
    // A dotted provider alias is a lookup name only, never a path or key part: allowed.
    expect(res.lines.some((l) => l.includes('gpt-4.1'))).toBe(false);
  });

  it('the workspace builder refuses a path outside <data_dir>/workspaces', () => {
    expect(defaultWorkspacePath('/srv/data', 'main')).toBe('/srv/data/workspaces/main');
    for (const alias of ['../../x', '..', '.', 'a/b', '/etc', '']) {
      expect(() => defaultWorkspacePath('/srv/data', alias)).toThrow(WorkspacePathError);
    }
  });

  it('`baton agent -s` refuses a session id outside the allowlist before anything runs', async () => {
    const err: string[] = [];
    const io = { out: () => {}, err: (t: string) => err.push(t), env: {} };
    const args = { configPath: '/nonexistent/baton.toml', agent: 'a', message: 'hi' };
    expect(await agentCommand({ ...args, session: 'telegram.home:1:' }, io)).toBe(2);
    expect(err).toEqual([BAD_SESSION_ID]);
  });
});
