// Pure parts of the provider layer: think stripping, <tool_call> parsing, history rendering, protocol choice.
import { describe, expect, test } from 'vitest';
import {
  parseToolCallBlocks,
  renderTextHistory,
  toolProtocolSection,
} from '../../../src/providers/text-tool-calls.ts';
import { stripThinkBlocks } from '../../../src/providers/think-blocks.ts';
import {
  chainToolProtocol,
  requestToolMode,
  StrictMixedChainError,
} from '../../../src/providers/tool-protocol.ts';
import type { ModelRequest } from '../../../src/providers/types.ts';

describe('stripThinkBlocks', () => {
  test('removes closed, stray-closing and unclosed blocks', () => {
    expect(stripThinkBlocks('<think>plan</think>Answer')).toBe('Answer');
    expect(stripThinkBlocks('a<think>x</think> b <think>\ny\n</think>c')).toBe('a b c');
    expect(stripThinkBlocks('template-opened reasoning</think>\nAnswer')).toBe('Answer');
    expect(stripThinkBlocks('Answer<think>cut off')).toBe('Answer');
    expect(stripThinkBlocks('<think>only thoughts</think>')).toBe('');
    expect(stripThinkBlocks('no tags')).toBe('no tags');
  });
});

describe('parseToolCallBlocks', () => {
  test('parses several blocks, tolerates whitespace and double-encoded arguments', () => {
    const r = parseToolCallBlocks(
      'First.\n<tool_call>\n  {"name": "a", "arguments": {"x": 1}}  \n</tool_call>\n<tool_call>{"name":"b","arguments":"{\\"y\\":2}"}</tool_call>',
    );
    expect(r.toolCalls.map(({ name, arguments: args }) => ({ name, args }))).toEqual([
      { name: 'a', args: { x: 1 } },
      { name: 'b', args: { y: 2 } },
    ]);
    expect(r.text).toBe('First.');
    expect(new Set(r.toolCalls.map((c) => c.id)).size).toBe(2);
  });

  test('invalid JSON keeps the raw string and recovers the name when it can', () => {
    const r = parseToolCallBlocks('<tool_call>{"name": "shell", "arguments": {bad}</tool_call>');
    expect(r.toolCalls).toEqual([
      { id: expect.any(String), name: 'shell', arguments: '{"name": "shell", "arguments": {bad}' },
    ]);
  });

  test('missing arguments become an empty object; text without blocks is untouched', () => {
    expect(parseToolCallBlocks('<tool_call>{"name": "ping"}</tool_call>').toolCalls[0]!.arguments).toEqual(
      {},
    );
    expect(parseToolCallBlocks('  plain\n\n\n text ')).toEqual({
      text: '  plain\n\n\n text ',
      toolCalls: [],
    });
  });
});

describe('text history and prompt', () => {
  test('tool calls render as blocks, consecutive results as one user turn', () => {
    const out = renderTextHistory([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: 'ok',
        toolCalls: [
          { id: '1', name: 'a', arguments: { x: 1 } },
          { id: '2', name: 'b', arguments: {} },
        ],
      },
      { role: 'tool', toolCallId: '1', toolName: 'a', content: 'A' },
      { role: 'tool', toolCallId: '2', toolName: 'b', content: 'B' },
      { role: 'assistant', content: 'done' },
    ]);
    expect(out).toEqual([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content:
          'ok\n<tool_call>\n{"name":"a","arguments":{"x":1}}\n</tool_call>\n<tool_call>\n{"name":"b","arguments":{}}\n</tool_call>',
      },
      {
        role: 'user',
        content: '<tool_result name="a">\nA\n</tool_result>\n\n<tool_result name="b">\nB\n</tool_result>',
      },
      { role: 'assistant', content: 'done' },
    ]);
  });

  test('the protocol section lists every tool with its schema', () => {
    const s = toolProtocolSection([{ name: 'shell', description: 'Run.', parameters: { type: 'object' } }]);
    expect(s.startsWith('## Tool Use Protocol\n')).toBe(true);
    expect(s).toContain('## Tools\n\n### shell\nRun.\nParameters (JSON Schema):\n{"type":"object"}');
  });
});

describe('protocol choice', () => {
  const req = (strict: boolean, tools = 1): ModelRequest => ({
    system: '',
    messages: [],
    tools: Array.from({ length: tools }, (_, i) => ({ name: `t${i}`, description: '', parameters: {} })),
    strictToolParsing: strict,
  });

  test('chain protocol from native flags', () => {
    expect(chainToolProtocol([true, true])).toBe('native');
    expect(chainToolProtocol([false, false])).toBe('text');
    expect(chainToolProtocol([true, false])).toBe('mixed');
  });

  test('request mode per protocol and strictness', () => {
    expect(requestToolMode('native', req(true))).toBe('native');
    expect(requestToolMode('text', req(false))).toBe('text');
    expect(requestToolMode('text', req(true))).toBe('plain');
    expect(requestToolMode('mixed', req(false))).toBe('text');
    expect(requestToolMode('mixed', req(true, 0))).toBe('plain');
    expect(() => requestToolMode('mixed', req(true))).toThrow(StrictMixedChainError);
  });
});
