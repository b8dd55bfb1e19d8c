// The provider-model prompt baton builds itself (no streamText): history shape, and native tool-call input parsing.
import { describe, expect, test } from 'vitest';
import { functionTools, nativePrompt, unansweredToolCalls } from '../../../src/providers/model-prompt.ts';
import { toolInput } from '../../../src/providers/tool-input.ts';
import type { ChatMessage } from '../../../src/providers/types.ts';

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('nativePrompt', () => {
  const history: ChatMessage[] = [
    { role: 'user', content: 'look', images: [{ mediaType: 'image/png', data: png }] },
    {
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'a', name: 'shell', arguments: { cmd: 'ls' } },
        { id: 'b', name: 'read', arguments: 'raw' },
      ],
      reasoning: [{ text: 't', providerOptions: { anthropic: { signature: 'S' } } }],
    },
    { role: 'tool', toolCallId: 'a', toolName: 'shell', content: 'out a' },
    { role: 'tool', toolCallId: 'b', toolName: 'read', content: 'out b' },
    { role: 'assistant', content: '' },
  ];

  test('system first, consecutive tool results in one tool message, empty texts as the SDK kept them', () => {
    const prompt = nativePrompt('sys', history, true);
    expect(prompt.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(prompt[1]?.content).toEqual([
      { type: 'text', text: 'look' },
      { type: 'file', mediaType: 'image/png', data: png },
    ]);
    expect(prompt[2]?.content).toEqual([
      { type: 'reasoning', text: 't', providerOptions: { anthropic: { signature: 'S' } } },
      { type: 'tool-call', toolCallId: 'a', toolName: 'shell', input: { cmd: 'ls' } },
      { type: 'tool-call', toolCallId: 'b', toolName: 'read', input: 'raw' },
    ]);
    expect(prompt[3]?.content).toHaveLength(2);
    expect(prompt[4]?.content).toEqual([{ type: 'text', text: '' }]);
  });

  test('no system message for an empty system prompt; images dropped without vision', () => {
    const prompt = nativePrompt('', history, false);
    expect(prompt[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'look' }] });
  });

  test('a tool call without a result before the next user message is found', () => {
    expect(unansweredToolCalls(history)).toEqual([]);
    const cut: ChatMessage[] = [...history.slice(0, 3), { role: 'user', content: 'next' }];
    expect(unansweredToolCalls(cut)).toEqual(['b']);
    expect(unansweredToolCalls(history.slice(0, 2))).toEqual(['a', 'b']);
  });

  test('function tools: none for an empty list, the last of a repeated name wins', () => {
    expect(functionTools([])).toBeUndefined();
    const tools = functionTools([
      { name: 'x', description: 'one', parameters: { type: 'object' } },
      { name: 'y', description: 'two', parameters: { type: 'object' } },
      { name: 'x', description: 'three', parameters: { type: 'object' } },
    ]);
    expect(tools?.map((t) => [t.name, t.type === 'function' && t.description])).toEqual([
      ['x', 'three'],
      ['y', 'two'],
    ]);
  });
});

describe('toolInput', () => {
  test('JSON parsed; empty input of an offered tool is {}; anything unparseable stays the raw string', () => {
    expect(toolInput('{"a":[1,{"b":2}]}', true)).toEqual({ a: [1, { b: 2 }] });
    expect(toolInput('  ', true)).toEqual({});
    expect(toolInput('', false)).toBe('');
    expect(toolInput('{bad', true)).toBe('{bad');
    expect(toolInput('"text"', true)).toBe('text');
  });

  test('prototype keys make the input unparseable, as with secure-json-parse', () => {
    expect(toolInput('{"__proto__":{"x":1}}', true)).toBe('{"__proto__":{"x":1}}');
    expect(toolInput('{"a":{"constructor":{"prototype":{}}}}', true)).toBe(
      '{"a":{"constructor":{"prototype":{}}}}',
    );
    expect(toolInput('{"constructor":"fine"}', true)).toEqual({ constructor: 'fine' });
  });
});
