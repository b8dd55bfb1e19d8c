// memory_store / memory_recall / memory_forget: Markdown files per agent, recall across the allowlist only.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../../../src/run-contract/tool.ts';
import { memorySlug } from '../../../../src/tools/builtin/memory-files.ts';
import { createMemoryForgetTool } from '../../../../src/tools/builtin/memory-forget.ts';
import { createMemoryRecallTool } from '../../../../src/tools/builtin/memory-recall.ts';
import { createMemoryStoreTool } from '../../../../src/tools/builtin/memory-store.ts';
import { buildRunContext, createMemoryBuckets } from '../../../helpers/run-context.ts';
import { configFromToml } from '../../../helpers/test-config.ts';

const dataDir = realpathSync(mkdtempSync(join(tmpdir(), 'baton-memory-')));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const config = configFromToml(
  `
[risk_profiles.default]
[risk_profiles.ro]
level = "readonly"

[agents.main]
risk_profile = "default"
workspace.read_memory_from = ["research"]
[agents.research]
risk_profile = "default"
[agents.finance]
risk_profile = "default"
[agents.viewer]
risk_profile = "ro"
workspace.read_memory_from = ["main"]
`,
  { dataDir },
);

function ctx(alias: string, over: { memoryAllowlist?: string[] } = {}): ToolContext {
  const run = buildRunContext({ config, agentAlias: alias, buckets: createMemoryBuckets(), ...over });
  return { run, toolCallId: 'c1', signal: run.signal };
}

const store = createMemoryStoreTool();
const recall = createMemoryRecallTool();
const forget = createMemoryForgetTool();
const memFile = (alias: string, slug: string) => join(dataDir, 'workspaces', alias, 'memory', `${slug}.md`);

describe('memory tools', () => {
  it('stores a Markdown file per key in the agent workspace', async () => {
    const r = await store.execute({ key: 'User Timezone', content: 'Europe/Paris' }, ctx('main'));
    expect(r).toEqual({ success: true, output: "Stored memory 'User Timezone'", error: null });
    expect(readFileSync(memFile('main', 'user-timezone'), 'utf8')).toBe('# User Timezone\n\nEurope/Paris\n');
  });

  it('sanitises keys into safe file names and refuses empty ones', async () => {
    expect(memorySlug('../../etc/passwd')).toBe('etc-passwd');
    expect(memorySlug('Café  Crème!')).toBe('café-crème');
    expect(memorySlug(' ?! ')).toBeNull();
    const r = await store.execute({ key: '../..', content: 'x' }, ctx('main'));
    expect(r.success).toBe(false);
    expect(r.error).toContain("Missing or empty 'key' parameter");
    await store.execute({ key: '../../escape', content: 'contained' }, ctx('main'));
    expect(existsSync(memFile('main', 'escape'))).toBe(true);
    expect(existsSync(join(dataDir, 'escape.md'))).toBe(false);
  });

  it('recalls across the allowlist with the alias shown, ranked by matches', async () => {
    await store.execute(
      { key: 'deploy steps', content: 'run the deploy script then check deploy logs' },
      ctx('research'),
    );
    await store.execute({ key: 'lunch', content: 'deploy nothing on fridays' }, ctx('main'));
    await store.execute({ key: 'budget', content: 'deploy budget is secret' }, ctx('finance'));
    const r = await recall.execute({ query: 'deploy' }, ctx('main'));
    expect(r.success).toBe(true);
    expect(r.output.split('\n')).toEqual([
      '[research] deploy steps: run the deploy script then check deploy logs',
      '[main] lunch: deploy nothing on fridays',
    ]);
    expect(r.output).not.toContain('finance');
  });

  it('never reads beyond the run allowlist (a narrowed subagent list)', async () => {
    const r = await recall.execute({ query: 'deploy' }, ctx('main', { memoryAllowlist: ['main'] }));
    expect(r.output).toBe('[main] lunch: deploy nothing on fridays');
  });

  it('says so when nothing matches and refuses an empty query', async () => {
    expect((await recall.execute({ query: 'zebra' }, ctx('main'))).output).toBe(
      "No memories found matching 'zebra'",
    );
    expect((await recall.execute({ query: '  ' }, ctx('main'))).error).toBe(
      "Missing or empty 'query' parameter",
    );
  });

  it('recalls at level readonly but refuses to store or forget', async () => {
    expect((await recall.execute({ query: 'lunch' }, ctx('viewer'))).output).toBe(
      '[main] lunch: deploy nothing on fridays',
    );
    expect((await store.execute({ key: 'k', content: 'v' }, ctx('viewer'))).error).toBe(
      "Security policy: read-only mode, cannot perform 'memory_store'",
    );
    expect((await forget.execute({ key: 'lunch' }, ctx('viewer'))).error).toBe(
      "Security policy: read-only mode, cannot perform 'memory_forget'",
    );
  });

  it('forgets only its own entries', async () => {
    expect((await forget.execute({ key: 'deploy steps' }, ctx('main'))).output).toBe(
      "No memory found with key 'deploy steps'",
    );
    expect(existsSync(memFile('research', 'deploy-steps'))).toBe(true);
    expect((await forget.execute({ key: 'Lunch' }, ctx('main'))).output).toBe("Forgot memory 'Lunch'");
    expect(existsSync(memFile('main', 'lunch'))).toBe(false);
    expect((await recall.execute({ query: 'fridays' }, ctx('main'))).output).toBe(
      "No memories found matching 'fridays'",
    );
  });

  it('does not follow a symlinked memory file when recalling', async () => {
    const dir = join(dataDir, 'workspaces', 'research', 'memory');
    mkdirSync(dir, { recursive: true });
    symlinkSync(memFile('finance', 'budget'), join(dir, 'stolen.md'));
    const r = await recall.execute({ query: 'budget secret' }, ctx('main'));
    expect(r.output).toBe("No memories found matching 'budget secret'");
  });

  it('never throws on malformed input', async () => {
    for (const input of [undefined, null, 'x', {}, { key: 1 }, { query: ['x'] }, { key: null, query: 3 }]) {
      for (const tool of [store, recall, forget]) {
        expect((await tool.execute(input as never, ctx('main'))).success).toBe(false);
      }
    }
  });
});
