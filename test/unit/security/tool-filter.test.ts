// Tool-set filtering (subagents.md §6 step 1–2) and the spawn_subagent risk-profile gate (§4 step 3).
import { describe, expect, it } from 'vitest';
import {
  filterToolNames,
  intersectAllowlist,
  isToolAdmittedByProfile,
} from '../../../src/security/tool-filter.ts';
import { configFromToml } from '../../helpers/test-config.ts';

const ALL = ['shell', 'file_read', 'spawn_subagent', 'delegate', 'github__create_issue', 'model_switch'];
const filter = (allowedTools: string[] = [], excludedTools: string[] = [], denyAllTools = false) => ({
  allowedTools,
  excludedTools,
  denyAllTools,
});

describe('filterToolNames', () => {
  it('keeps everything when allowed_tools is empty', () => {
    expect(filterToolNames(ALL, filter())).toEqual(ALL);
  });

  it('removes everything with deny_all_tools, whatever the lists say', () => {
    expect(filterToolNames(ALL, filter(['shell'], [], true))).toEqual([]);
  });

  it('keeps exact matches of a non-empty list plus MCP tools (names containing __)', () => {
    expect(filterToolNames(ALL, filter(['shell', 'Delegate', 'file']))).toEqual([
      'shell',
      'github__create_issue',
    ]);
  });

  it('always removes excluded tools, including auto-admitted MCP tools', () => {
    expect(filterToolNames(ALL, filter(['shell'], ['shell', 'github__create_issue']))).toEqual([]);
    expect(filterToolNames(ALL, filter([], ['delegate']))).toEqual(ALL.filter((n) => n !== 'delegate'));
  });
});

describe('intersectAllowlist', () => {
  it('intersects with a caller allowlist and leaves the set alone without one', () => {
    expect(intersectAllowlist(ALL, ['shell', 'nope', 'delegate'])).toEqual(['shell', 'delegate']);
    expect(intersectAllowlist(ALL, [])).toEqual([]);
    expect(intersectAllowlist(ALL, undefined)).toEqual(ALL);
  });
});

describe('isToolAdmittedByProfile (spawn_subagent gate)', () => {
  /** Whether risk profile `p`, with `keys` (TOML) in its table, admits spawn_subagent. */
  const admitted = (keys: string) =>
    isToolAdmittedByProfile(configFromToml(`[risk_profiles.p]\n${keys}`).risk_profiles.p, 'spawn_subagent');

  it('admits with an empty allowed_tools list or one naming the tool', () => {
    expect(admitted('')).toBe(true);
    expect(admitted('allowed_tools = ["spawn_subagent"]')).toBe(true);
  });

  it('refuses on deny_all_tools, a list without it, or an exclusion', () => {
    expect(admitted('deny_all_tools = true')).toBe(false);
    expect(admitted('allowed_tools = ["shell"]')).toBe(false);
    expect(admitted('excluded_tools = ["spawn_subagent"]')).toBe(false);
  });

  it('does not apply without a resolvable profile', () => {
    expect(isToolAdmittedByProfile(undefined, 'spawn_subagent')).toBe(true);
  });
});
