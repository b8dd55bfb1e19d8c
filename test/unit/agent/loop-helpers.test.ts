import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  createDuplicateGuard,
  duplicateCallText,
} from '../../../src/agent/duplicate-guard.ts';
import { modelVisibleText, truncateToolText } from '../../../src/agent/tool-result-text.ts';

describe('duplicate-call guard (subagents.md §9)', () => {
  it('skips a repeat with JSON-equal arguments whatever the key order', () => {
    const guard = createDuplicateGuard();
    expect(guard.isDuplicate('file_read', { path: 'a', n: { x: 1, y: [1, 2] } })).toBe(false);
    expect(guard.isDuplicate('file_read', { n: { y: [1, 2], x: 1 }, path: 'a' })).toBe(true);
    expect(guard.isDuplicate('file_read', { path: 'b' })).toBe(false);
    expect(guard.isDuplicate('shell', { path: 'a', n: { x: 1, y: [1, 2] } })).toBe(false);
  });
  it('never skips spawn_subagent or delegate, and honours tool_call_dedup_exempt', () => {
    const guard = createDuplicateGuard(['memory_recall']);
    for (const tool of ['spawn_subagent', 'delegate', 'memory_recall']) {
      expect(guard.isDuplicate(tool, { prompt: 'x' })).toBe(false);
      expect(guard.isDuplicate(tool, { prompt: 'x' })).toBe(false);
    }
  });
  it('has the exact skip text', () => {
    expect(duplicateCallText('shell')).toBe(
      "Skipped duplicate tool call 'shell' with identical arguments in this turn.",
    );
  });
  it('canonical JSON sorts keys at every level', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe('{"a":{"c":3,"d":2},"b":1}');
  });
});

describe('what the model sees of a tool result', () => {
  it('is the output on success and "Error: <error>" on failure, after the output and a blank line', () => {
    expect(modelVisibleText({ success: true, output: 'hi', error: null })).toBe('hi');
    expect(modelVisibleText({ success: false, output: '', error: 'boom' })).toBe('Error: boom');
    expect(modelVisibleText({ success: false, output: 'partial', error: 'boom' })).toBe(
      'partial\n\nError: boom',
    );
  });
  it('truncates past max_tool_result_chars with the characters-truncated marker', () => {
    expect(truncateToolText('abcdef', undefined)).toBe('abcdef');
    expect(truncateToolText('abcdef', 6)).toBe('abcdef');
    expect(truncateToolText('abcdef', 4)).toBe('abcd\n[… 2 characters truncated]');
  });
});
