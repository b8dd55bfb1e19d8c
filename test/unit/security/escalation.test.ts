// The narrowing validator of subagents.md §10: every violation text verbatim, in order, and the comparison rules.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  commandsEquivalent,
  ensureNoEscalationBeyond,
  validateMemoryAllowlistOverride,
} from '../../../src/security/escalation.ts';
import { buildPolicy } from '../../helpers/policy.ts';

const parent = buildPolicy({
  autonomy: 'supervised',
  allowedRoots: ['/projects'],
  allowedRootsReadOnly: ['/shared/docs'],
  allowedRootsWriteOnly: ['/drop'],
  allowedCommands: ['git', 'ls', '/usr/bin/git'],
  forbiddenPaths: ['/etc', '~/.ssh'],
  shellEnvPassthrough: ['LANGUAGE'],
  maxActionsPerHour: 20,
  maxCostPerDayCents: 500,
  shellTimeoutSecs: 60,
});

describe('ensureNoEscalationBeyond', () => {
  it('accepts the parent policy itself', () => {
    expect(ensureNoEscalationBeyond(parent, parent)).toBeNull();
  });

  it.each([
    [{ autonomy: 'full' as const }, "subagent autonomy=Full exceeds parent's Supervised"],
    [
      { allowedRoots: ['/projects2'] },
      'subagent allowed_roots entry "/projects2" is not contained within any of the parent\'s allowed_roots entries',
    ],
    [
      { allowedRootsReadOnly: ['/other'] },
      'subagent allowed_roots_read_only entry "/other" is not contained within the parent\'s allowed_roots or allowed_roots_read_only',
    ],
    [
      { allowedRootsWriteOnly: ['/shared/docs'] },
      'subagent allowed_roots_write_only entry "/shared/docs" is not contained within the parent\'s allowed_roots or allowed_roots_write_only',
    ],
    [
      { allowedCommands: ['git', 'curl'] },
      'subagent allowed_commands entry "curl" is not present on the parent\'s allowed_commands',
    ],
    [{ workspaceOnly: false }, 'subagent attempts to disable workspace_only but the parent enforces it'],
    [{ forbiddenPaths: ['/etc'] }, 'subagent drops forbidden_paths entry "~/.ssh" that the parent enforces'],
    [
      { shellEnvPassthrough: ['LANGUAGE', 'AWS_SECRET_ACCESS_KEY'] },
      'subagent shell_env_passthrough entry "AWS_SECRET_ACCESS_KEY" is not present on the parent\'s list',
    ],
    [{ maxActionsPerHour: 21 }, "subagent max_actions_per_hour=21 exceeds parent's 20"],
    [{ maxCostPerDayCents: 501 }, "subagent max_cost_per_day_cents=501 exceeds parent's 500"],
    [{ shellTimeoutSecs: 61 }, "subagent shell_timeout_secs=61 exceeds parent's 60"],
    [
      { blockHighRiskCommands: false },
      'subagent attempts to set block_high_risk_commands=false but the parent enforces it',
    ],
    [
      { requireApprovalForMediumRisk: false },
      'subagent attempts to set require_approval_for_medium_risk=false but the parent enforces it',
    ],
  ])('violation %#: %s', (over, expected) => {
    expect(ensureNoEscalationBeyond({ ...parent, ...over }, parent)).toBe(expected);
  });

  it('names autonomy levels ReadOnly < Supervised < Full', () => {
    const ro = { ...parent, autonomy: 'readonly' as const };
    expect(ensureNoEscalationBeyond({ ...parent, autonomy: 'supervised' }, ro)).toBe(
      "subagent autonomy=Supervised exceeds parent's ReadOnly",
    );
    expect(ensureNoEscalationBeyond(ro, parent)).toBeNull();
  });

  it('reports the first violation in spec order', () => {
    const child = { ...parent, maxActionsPerHour: 99, allowedCommands: ['rm'], workspaceOnly: false };
    expect(ensureNoEscalationBeyond(child, parent)).toBe(
      'subagent allowed_commands entry "rm" is not present on the parent\'s allowed_commands',
    );
  });

  it('accepts narrowing on every axis', () => {
    const child = {
      ...parent,
      autonomy: 'readonly' as const,
      allowedRoots: ['/projects/repo'],
      allowedRootsReadOnly: ['/projects/other', '/shared/docs/a'],
      allowedRootsWriteOnly: ['/drop/x'],
      allowedCommands: ['GIT'],
      forbiddenPaths: ['/etc', '~/.ssh', '/extra'],
      shellEnvPassthrough: [],
      maxActionsPerHour: 0,
      maxCostPerDayCents: 100,
      shellTimeoutSecs: 5,
    };
    expect(ensureNoEscalationBeyond(child, parent)).toBeNull();
  });

  it('contains paths by segments: /projects2 is not under /projects, /projects/repo is', () => {
    const root = (p: string) => ensureNoEscalationBeyond({ ...parent, allowedRoots: [p] }, parent);
    expect(root('/projects/repo')).toBeNull();
    expect(root('/projects')).toBeNull();
    expect(root('/projects2')).not.toBeNull();
    expect(root('/')).not.toBeNull();
  });

  it('accepts moving a read-write root to read-only or write-only', () => {
    const child = {
      ...parent,
      allowedRoots: [],
      allowedRootsReadOnly: ['/projects'],
      allowedRootsWriteOnly: ['/projects/out'],
    };
    expect(ensureNoEscalationBeyond(child, parent)).toBeNull();
  });

  it('treats a read-only parent root as not enough for a read-write child root', () => {
    const child = { ...parent, allowedRoots: ['/shared/docs'] };
    expect(ensureNoEscalationBeyond(child, parent)).toBe(
      'subagent allowed_roots entry "/shared/docs" is not contained within any of the parent\'s allowed_roots entries',
    );
  });

  describe('with real paths', () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-esc-'));
    mkdirSync(join(dir, 'real', 'sub'), { recursive: true });
    mkdirSync(join(dir, 'elsewhere'), { recursive: true });
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'real', 'escape'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const p = { ...parent, allowedRoots: [join(dir, 'real')] };

    it('resolves symlinks before comparing', () => {
      expect(ensureNoEscalationBeyond({ ...p, allowedRoots: [join(dir, 'link', 'sub')] }, p)).toBeNull();
    });

    it('still passes when only the unresolved paths are contained', () => {
      expect(ensureNoEscalationBeyond({ ...p, allowedRoots: [join(dir, 'real', 'escape')] }, p)).toBeNull();
    });

    it('passes for paths that do not exist, compared as written', () => {
      expect(
        ensureNoEscalationBeyond({ ...p, allowedRoots: [join(dir, 'real', 'missing', 'x')] }, p),
      ).toBeNull();
      expect(ensureNoEscalationBeyond({ ...p, allowedRoots: [join(dir, 'realx')] }, p)).not.toBeNull();
    });
  });

  it('treats a child cost ceiling of 0 (inherit the global limit) as wider than a positive parent ceiling', () => {
    expect(ensureNoEscalationBeyond({ ...parent, maxCostPerDayCents: 0 }, parent)).toBe(
      "subagent max_cost_per_day_cents=0 exceeds parent's 500",
    );
    const unlimited = { ...parent, maxCostPerDayCents: 0 };
    expect(ensureNoEscalationBeyond({ ...parent, maxCostPerDayCents: 900 }, unlimited)).toBeNull();
  });
});

describe('command equivalence', () => {
  it.each([
    ['Git', 'git', true],
    ['/usr/bin/Git', '/usr/bin/git', false],
    ['/usr/bin/git', '/usr/bin/git', true],
    ['git', '/usr/bin/git', false],
    ['"git"', 'git', true],
    ["'git'", 'GIT', true],
    ['  git  ', 'git', true],
    ['" git "', 'git', true],
    ['""', '', false],
    ['', '', false],
    ['"', '"', true],
    ['""git""', 'git', false],
  ])('%j vs %j → %s', (a, b, same) => {
    expect(commandsEquivalent(a, b)).toBe(same);
  });

  it('applies to allowed_commands in the validator', () => {
    expect(ensureNoEscalationBeyond({ ...parent, allowedCommands: ['"Git"', 'LS'] }, parent)).toBeNull();
    expect(ensureNoEscalationBeyond({ ...parent, allowedCommands: ['/usr/bin/Git'] }, parent)).toBe(
      'subagent allowed_commands entry "/usr/bin/Git" is not present on the parent\'s allowed_commands',
    );
    expect(ensureNoEscalationBeyond({ ...parent, allowedCommands: [''] }, parent)).toBe(
      'subagent allowed_commands entry "" is not present on the parent\'s allowed_commands',
    );
  });
});

describe('validateMemoryAllowlistOverride', () => {
  it('accepts a subset and adds the parent alias back', () => {
    expect(validateMemoryAllowlistOverride(['research', 'ops', 'main'], 'main', ['ops'])).toEqual({
      ok: true,
      allowlist: ['ops', 'main'],
    });
  });

  it('turns an empty override into exactly the parent alias', () => {
    expect(validateMemoryAllowlistOverride(['research', 'main'], 'main', [])).toEqual({
      ok: true,
      allowlist: ['main'],
    });
  });

  it('refuses an alias the parent cannot read', () => {
    expect(validateMemoryAllowlistOverride(['research', 'main'], 'main', ['research', 'finance'])).toEqual({
      ok: false,
      error:
        'subagent allowlist override contains alias "finance" not present on parent\'s memory allowlist; SubAgent overrides may only narrow',
    });
  });

  it('accepts the parent alias even when the parent list omits it', () => {
    expect(validateMemoryAllowlistOverride([], 'main', ['main'])).toEqual({ ok: true, allowlist: ['main'] });
  });
});
