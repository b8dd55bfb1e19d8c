import { describe, expect, it } from 'vitest';
import { createApprovalGate, evaluateRequirement } from '../../../src/approval/gate.ts';
import type { SecurityPolicy } from '../../../src/security/types.ts';

const base = { autonomy: 'supervised' as const, alwaysAsk: [] as string[], autoApprove: ['file_read'] };
const none = new Set<string>();

describe('approval requirement order (approvals.md §2)', () => {
  it('readonly is never prompted, even for always_ask tools', () => {
    expect(
      evaluateRequirement({ ...base, autonomy: 'readonly', alwaysAsk: ['shell'] }, 'shell', true, none),
    ).toBe('not_required');
  });
  it('always_ask prompts even at level full, and "*" matches every tool', () => {
    expect(
      evaluateRequirement({ ...base, autonomy: 'full', alwaysAsk: ['shell'] }, 'shell', true, none),
    ).toBe('prompt');
    expect(evaluateRequirement({ ...base, alwaysAsk: ['*'] }, 'file_read', true, none)).toBe('prompt');
  });
  it('full approves what always_ask does not name', () => {
    expect(evaluateRequirement({ ...base, autonomy: 'full' }, 'file_write', true, none)).toBe('approved');
  });
  it('shell is left to its command policy only while the shell exemption is on', () => {
    expect(evaluateRequirement(base, 'shell', true, none)).toBe('not_required');
    expect(evaluateRequirement(base, 'shell', false, none)).toBe('prompt');
  });
  it('auto_approve and the gate "Always" list approve; anything else prompts', () => {
    expect(evaluateRequirement(base, 'file_read', true, none)).toBe('approved');
    expect(evaluateRequirement({ ...base, autoApprove: ['*'] }, 'file_write', true, none)).toBe('approved');
    expect(evaluateRequirement(base, 'file_write', true, new Set(['file_write']))).toBe('approved');
    expect(evaluateRequirement(base, 'file_write', true, none)).toBe('prompt');
  });
});

describe('a file_write to a file that configures execution (Security 2, item 1)', () => {
  const signal = new AbortController().signal;
  const policy = { ...base, autoApprove: ['file_write'], workspaceDir: '/srv/ws' } as SecurityPolicy;

  it('is left to the tool, past auto_approve and "Always", as shell is', () => {
    expect(evaluateRequirement(policy, 'file_write', true, none, true)).toBe('not_required');
    expect(evaluateRequirement(base, 'file_write', true, new Set(['file_write']), true)).toBe('not_required');
    // always_ask and full autonomy still come first.
    expect(evaluateRequirement({ ...base, alwaysAsk: ['file_write'] }, 'file_write', true, none, true)).toBe(
      'prompt',
    );
  });

  it('the gate tells such a call by its path', async () => {
    const asked: string[] = [];
    const asker = {
      ask: async (tool: string) => {
        asked.push(tool);
        return 'deny' as const;
      },
    };
    const gate = createApprovalGate({ policy: { ...policy, autoApprove: [] }, shellExempt: true, asker });
    expect(await gate.check('file_write', { path: '.git/config', content: '' }, signal)).toEqual({
      kind: 'run',
    });
    expect(await gate.check('file_write', { path: 'notes.txt', content: '' }, signal)).toEqual({
      kind: 'denied_by_user',
    });
    expect(asked).toEqual(['file_write']);
  });
});

describe('approval gate', () => {
  const policy = { ...base } as Pick<SecurityPolicy, 'autonomy' | 'alwaysAsk' | 'autoApprove'>;
  const signal = new AbortController().signal;

  it('a non-interactive gate denies every prompt by runtime', async () => {
    const gate = createApprovalGate({ policy: policy as SecurityPolicy, shellExempt: true, asker: null });
    expect(await gate.check('file_write', {}, signal)).toEqual({
      kind: 'denied_by_runtime',
      reason: 'no_approver',
    });
    expect(await gate.check('file_read', {}, signal)).toEqual({ kind: 'run' });
  });

  it('"Always" lasts for the gate that asked, and a fresh gate starts empty', async () => {
    const answers: string[] = [];
    const asker = {
      ask: async (tool: string) => {
        answers.push(tool);
        return 'always' as const;
      },
    };
    const gate = createApprovalGate({ policy: policy as SecurityPolicy, shellExempt: true, asker });
    expect(await gate.check('file_write', {}, signal)).toEqual({ kind: 'run' });
    expect(await gate.check('file_write', { other: 1 }, signal)).toEqual({ kind: 'run' });
    expect(answers).toEqual(['file_write']);
    const fresh = createApprovalGate({ policy: policy as SecurityPolicy, shellExempt: true, asker });
    await fresh.check('file_write', {}, signal);
    expect(answers).toEqual(['file_write', 'file_write']);
  });

  it('maps deny to a user denial and keeps each runtime denial reason distinct', async () => {
    const deny = createApprovalGate({
      policy: policy as SecurityPolicy,
      shellExempt: true,
      asker: { ask: async () => 'deny' },
    });
    expect(await deny.check('file_write', {}, signal)).toEqual({ kind: 'denied_by_user' });
    const silent = createApprovalGate({
      policy: policy as SecurityPolicy,
      shellExempt: true,
      asker: { ask: async () => 'timed_out' },
    });
    expect(await silent.check('file_write', {}, signal)).toEqual({
      kind: 'denied_by_runtime',
      reason: 'timed_out',
    });
  });

  it('tells onDecision what it did with each call that needed an operator (the metrics outcome)', async () => {
    const seen: string[] = [];
    const answers = ['approve', 'always', 'deny', 'unreachable'] as const;
    let i = 0;
    const gate = createApprovalGate({
      policy: policy as SecurityPolicy,
      shellExempt: true,
      asker: { ask: async () => answers[i++]! },
      onDecision: (o) => seen.push(o),
    });
    for (const tool of ['a', 'b', 'c', 'd']) await gate.check(tool, {}, signal);
    await gate.check('file_read', {}, signal); // auto-approved: no operator, no outcome
    await gate.check('b', {}, signal); // "Always" granted: no operator, no outcome
    const offline = createApprovalGate({
      policy: policy as SecurityPolicy,
      shellExempt: true,
      asker: null,
      onDecision: (o) => seen.push(o),
    });
    await offline.askForCommand('shell', {}, signal);
    expect(seen).toEqual(['approved', 'always', 'denied', 'denied_by_runtime', 'denied_by_runtime']);
  });
});
