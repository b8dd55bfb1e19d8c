// The builtin tools' risk map used by approvals, with shell classified per command.
import { describe, expect, it } from 'vitest';
import { riskOf, TOOL_RISK } from '../../../../src/tools/builtin/risk.ts';

describe('tool risk', () => {
  it('classifies the builtin tools', () => {
    expect(TOOL_RISK).toMatchObject({
      file_read: 'low',
      memory_recall: 'low',
      memory_store: 'medium',
      memory_forget: 'medium',
      file_write: 'medium',
    });
  });

  it('decides shell per command', () => {
    expect(riskOf('shell', { command: 'ls -la' })).toBe('low');
    expect(riskOf('shell', { command: 'git commit -m x' })).toBe('medium');
    expect(riskOf('shell', { command: 'sudo reboot' })).toBe('high');
    expect(riskOf('shell', { command: 'ls; rm -rf /' })).toBe('high');
    expect(riskOf('shell', null)).toBe('high');
    expect(riskOf('file_read', {})).toBe('low');
    expect(riskOf('mystery', {})).toBe('medium');
  });

  it('rates a file_write to a file that configures execution high', () => {
    expect(riskOf('file_write', { path: '.git/config', content: '' })).toBe('high');
    expect(riskOf('file_write', { path: 'a/.npmrc', content: '' })).toBe('high');
    expect(riskOf('file_write', { path: 'notes.md', content: '' })).toBe('medium');
    expect(riskOf('shell', { command: 'cp x .git/config' })).toBe('high');
  });
});
