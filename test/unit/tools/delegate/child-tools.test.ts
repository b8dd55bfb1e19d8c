// A bounded child's shell judges and bounds commands with the caller's policy: its sandbox setting included.
import { describe, expect, it } from 'vitest';
import type { Tool, ToolContext } from '../../../../src/run-contract/tool.ts';
import { ok } from '../../../../src/run-contract/tool.ts';
import { createToolRegistry } from '../../../../src/run-contract/tool-registry.ts';
import { boundedChildTools } from '../../../../src/tools/delegate/child-tools.ts';
import { buildPolicy } from '../../../helpers/policy.ts';
import { buildRunContext } from '../../../helpers/run-context.ts';
import { configFromToml } from '../../../helpers/test-config.ts';

describe('boundedChildTools', () => {
  it("runs the caller's shell under the caller's command policy and sandbox", async () => {
    const seen: ToolContext['run']['policy'][] = [];
    const shell = {
      name: 'shell',
      execute: async (_i: unknown, ctx: ToolContext) => {
        seen.push(ctx.run.policy);
        return ok('');
      },
    };
    const callerPolicy = buildPolicy({
      allowedCommands: ['git'],
      sandbox: { enabled: true, backend: 'bubblewrap', allowNetwork: false },
    });
    const targetPolicy = buildPolicy({
      agentAlias: 'target',
      allowedCommands: ['git', 'curl'],
      sandbox: { enabled: false, backend: 'none', allowNetwork: true },
    });
    const tools = boundedChildTools({
      callerTools: createToolRegistry([shell as unknown as Tool]),
      callerPolicy,
      targetPolicy,
      grant: null,
    });
    const run = buildRunContext({
      config: configFromToml('[risk_profiles.default]\n[agents.main]\nrisk_profile = "default"'),
      agentAlias: 'main',
      policy: targetPolicy,
    });
    await tools
      .get('shell')
      ?.execute({ command: 'git status' }, { run, toolCallId: 'c', signal: run.signal });
    expect(seen[0]?.allowedCommands).toEqual(['git']);
    expect(seen[0]?.sandbox).toEqual(callerPolicy.sandbox);
    expect(seen[0]?.agentAlias).toBe('target');
  });
});
