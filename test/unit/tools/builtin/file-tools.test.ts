// file_read and file_write: confinement, traversal, symlink escapes, forbidden paths, roots, atomic writes, bad input.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../../../src/run-contract/tool.ts';
import { createFileReadTool, FILE_READ_CAP_BYTES } from '../../../../src/tools/builtin/file-read.ts';
import { createFileWriteTool } from '../../../../src/tools/builtin/file-write.ts';
import { buildRunContext, createFakeGate, createMemoryBuckets } from '../../../helpers/run-context.ts';
import { configFromToml, type TomlValue, tomlKeys } from '../../../helpers/test-config.ts';

const dataDir = realpathSync(mkdtempSync(join(tmpdir(), 'baton-files-')));
const ws = join(dataDir, 'workspaces', 'main');
const outside = join(dataDir, 'outside');
const docs = join(dataDir, 'workspaces', 'docs');
mkdirSync(ws, { recursive: true });
mkdirSync(outside, { recursive: true });
mkdirSync(docs, { recursive: true });
writeFileSync(join(ws, 'hello.txt'), 'hello world');
writeFileSync(join(outside, 'secret.txt'), 'top secret');
writeFileSync(join(docs, 'guide.md'), 'the guide');
symlinkSync(join(outside, 'secret.txt'), join(ws, 'sneaky'));
symlinkSync(outside, join(ws, 'sneaky-dir'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Agent `main` (read access to `docs`' workspace) on risk profile `default`, with `risk`'s keys over its base. */
function ctx(
  risk: Record<string, TomlValue> = {},
  unrestricted = false,
  gate = createFakeGate('run'),
): ToolContext {
  const config = configFromToml(
    `
[risk_profiles.default]
${tomlKeys({ forbidden_paths: ['/etc', '/proc', join(ws, 'private')], ...risk })}
[agents.main]
risk_profile = "default"
workspace.access = { docs = "read" }
workspace.unrestricted_filesystem = ${unrestricted}

[agents.docs]
risk_profile = "default"
`,
    { dataDir },
  );
  const run = buildRunContext({ config, agentAlias: 'main', gate, buckets: createMemoryBuckets() });
  return { run, toolCallId: 'call-1', signal: run.signal };
}

const read = createFileReadTool();
const write = createFileWriteTool();

describe('file_read', () => {
  it('reads a workspace file by relative path', async () => {
    expect(await read.execute({ path: 'hello.txt' }, ctx())).toEqual({
      success: true,
      output: 'hello world',
      error: null,
    });
  });

  it('refuses ../../etc/passwd and absolute paths outside the workspace', async () => {
    const traversal = await read.execute({ path: '../../../../../../../etc/passwd' }, ctx());
    expect(traversal).toMatchObject({ success: false, output: '' });
    expect(traversal.error).toContain('forbidden');
    const abs = await read.execute({ path: join(outside, 'secret.txt') }, ctx());
    expect(abs).toEqual({
      success: false,
      output: '',
      error: `Path '${join(outside, 'secret.txt')}' is outside the workspace and allowed roots`,
    });
    const rel = await read.execute({ path: '../../outside/secret.txt' }, ctx());
    expect(rel.error).toBe("Path '../../outside/secret.txt' is outside the workspace and allowed roots");
  });

  it('refuses a symlink that points outside', async () => {
    const r = await read.execute({ path: 'sneaky' }, ctx());
    expect(r.success).toBe(false);
    expect(r.error).toBe(
      "Path 'sneaky' resolves through a symbolic link to a location outside the allowed roots",
    );
    expect((await read.execute({ path: 'sneaky-dir/secret.txt' }, ctx())).success).toBe(false);
  });

  it('refuses forbidden paths even with workspace_only off', async () => {
    writeFileSync(join(ws, 'hello.txt'), 'hello world');
    mkdirSync(join(ws, 'private'), { recursive: true });
    writeFileSync(join(ws, 'private', 'key'), 'k');
    for (const c of [ctx(), ctx({}, true)]) {
      const r = await read.execute({ path: 'private/key' }, c);
      expect(r.error).toBe(
        "Access to 'private/key' is forbidden by this agent's risk profile (forbidden_paths)",
      );
      expect((await read.execute({ path: '/etc/hostname' }, c)).success).toBe(false);
    }
  });

  it('reads outside the workspace when workspace_only is off (unrestricted filesystem)', async () => {
    const r = await read.execute({ path: join(outside, 'secret.txt') }, ctx({}, true));
    expect(r).toEqual({ success: true, output: 'top secret', error: null });
    expect((await read.execute({ path: 'sneaky' }, ctx({ level: 'full' }))).output).toBe('top secret');
  });

  it('reads from a read-only root and works at level readonly', async () => {
    expect((await read.execute({ path: join(docs, 'guide.md') }, ctx())).output).toBe('the guide');
    expect((await read.execute({ path: 'hello.txt' }, ctx({ level: 'readonly' }))).output).toBe(
      'hello world',
    );
  });

  it('gives clear errors for a missing file, a directory and an oversized file', async () => {
    expect((await read.execute({ path: 'nope.txt' }, ctx())).error).toBe('File not found: nope.txt');
    expect((await read.execute({ path: '.' }, ctx())).error).toBe('Not a regular file: .');
    writeFileSync(join(ws, 'big.txt'), Buffer.alloc(FILE_READ_CAP_BYTES + 1, 'a'));
    expect((await read.execute({ path: 'big.txt' }, ctx())).error).toBe(
      `File too large: big.txt is ${FILE_READ_CAP_BYTES + 1} bytes; file_read reads at most ${FILE_READ_CAP_BYTES} bytes`,
    );
  });
});

describe('file_write', () => {
  it('writes atomically, creating parent directories, and leaves no temp files', async () => {
    const r = await write.execute({ path: 'notes/day/1.md', content: 'first' }, ctx());
    expect(r).toEqual({ success: true, output: 'Wrote 5 bytes to notes/day/1.md', error: null });
    await write.execute({ path: 'notes/day/1.md', content: 'second' }, ctx());
    expect(readFileSync(join(ws, 'notes/day/1.md'), 'utf8')).toBe('second');
    expect(readdirSync(join(ws, 'notes/day'))).toEqual(['1.md']);
  });

  it('refuses traversal, outside paths and symlink escapes', async () => {
    expect((await write.execute({ path: '../../outside/x.txt', content: 'x' }, ctx())).success).toBe(false);
    expect((await write.execute({ path: join(outside, 'x.txt'), content: 'x' }, ctx())).success).toBe(false);
    const viaLink = await write.execute({ path: 'sneaky-dir/planted.txt', content: 'x' }, ctx());
    expect(viaLink.error).toBe(
      "Path 'sneaky-dir/planted.txt' resolves through a symbolic link to a location outside the allowed roots",
    );
    const overLink = await write.execute({ path: 'sneaky', content: 'overwritten' }, ctx());
    expect(overLink.success).toBe(false);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
    expect(readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('refuses to write into a read-only root', async () => {
    const r = await write.execute({ path: join(docs, 'guide.md'), content: 'defaced' }, ctx());
    expect(r.error).toBe(
      `Path '${join(docs, 'guide.md')}' is in a read-only root; writing there is not allowed`,
    );
    expect(readFileSync(join(docs, 'guide.md'), 'utf8')).toBe('the guide');
  });

  it('refuses at level readonly with the spec text', async () => {
    const r = await write.execute({ path: 'a.txt', content: 'x' }, ctx({ level: 'readonly' }));
    expect(r).toEqual({
      success: false,
      output: '',
      error: "Security policy: read-only mode, cannot perform 'file_write'",
    });
  });

  it('refuses when the action budget is spent', async () => {
    const c = ctx();
    c.run.policy.maxActionsPerHour = 1;
    expect((await write.execute({ path: 'b1.txt', content: 'x' }, c)).success).toBe(true);
    expect(await write.execute({ path: 'b2.txt', content: 'x' }, c)).toEqual({
      success: false,
      output: '',
      error: 'Rate limit exceeded: action budget exhausted',
    });
  });
});

describe('file_write to a file that configures execution (Security 2, item 1)', () => {
  const blocked = (p: string) =>
    `Path '${p}' configures which programs run (git, package managers, shells); writing it is high-risk and blocked by this agent's risk profile (block_high_risk_commands)`;

  it('refuses .git/** at any depth and the named config files while high risk is blocked', async () => {
    for (const path of [
      '.git/config',
      'sub/.git/hooks/pre-commit',
      '.gitattributes',
      'pkg/.npmrc',
      '.cargo/config.toml',
    ]) {
      expect(await write.execute({ path, content: 'x' }, ctx()), path).toEqual({
        success: false,
        output: '',
        error: blocked(path),
      });
    }
    // Ordinary files, and names that only resemble one, are plain writes.
    for (const path of ['src/main.ts', '.gitignore', 'git/config', 'config.toml', 'Makefile']) {
      expect((await write.execute({ path, content: 'x' }, ctx())).success, path).toBe(true);
    }
  });

  it('sees through a symlink to .git/config', async () => {
    mkdirSync(join(ws, '.git'), { recursive: true });
    writeFileSync(join(ws, '.git', 'config'), '[core]\n');
    symlinkSync(join(ws, '.git', 'config'), join(ws, 'innocent.txt'));
    expect((await write.execute({ path: 'innocent.txt', content: 'x' }, ctx())).error).toBe(
      blocked('innocent.txt'),
    );
    expect(readFileSync(join(ws, '.git', 'config'), 'utf8')).toBe('[core]\n');
  });

  it('asks the operator when high risk is unblocked, and writes only when approved', async () => {
    const denied = createFakeGate('denied_by_user');
    const r = await write.execute(
      { path: '.envrc', content: 'x' },
      ctx({ block_high_risk_commands: false }, false, denied),
    );
    expect(r.error).toBe('Denied by user.');
    expect(denied.asks).toEqual([{ tool: 'file_write', args: { path: '.envrc', content: 'x' } }]);
    const approved = createFakeGate('run');
    const ok = await write.execute(
      { path: '.envrc', content: 'y' },
      ctx({ block_high_risk_commands: false }, false, approved),
    );
    expect(ok.success).toBe(true);
    expect(approved.asks).toHaveLength(1);
    // Full autonomy writes without asking, as it runs an unblocked high-risk command.
    const full = createFakeGate('denied_by_user');
    const f = await write.execute(
      { path: '.envrc', content: 'z' },
      ctx({ level: 'full', block_high_risk_commands: false }, false, full),
    );
    expect(f.success).toBe(true);
    expect(full.asks).toEqual([]);
  });
});

describe('malformed input never throws', () => {
  const bad: unknown[] = [
    undefined,
    null,
    42,
    'x',
    {},
    { path: 7 },
    { path: ['a'] },
    { path: 'a', content: 5 },
  ];
  it.each(bad)('%j', async (input) => {
    // The registry validates first; the tools check again.
    const r1 = await read.execute(input as never, ctx());
    const r2 = await write.execute(input as never, ctx());
    expect(r1.success).toBe(false);
    expect(r2.success).toBe(false);
    expect(r1.error).toMatch(/^Invalid arguments for tool 'file_read'|^File not found/);
    expect(r2.error).toMatch(/^Invalid arguments for tool 'file_write'/);
  });
});
