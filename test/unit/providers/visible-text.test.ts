// What a person may see of a growing answer, and the listener wrapper.
import { describe, expect, test } from 'vitest';
import { createTextFeed, visibleText } from '../../../src/providers/visible-text.ts';

const growing = { hideToolCalls: false, final: false };
const textTools = { hideToolCalls: true, final: false };

describe('visibleText', () => {
  test('hides think blocks, an unclosed think tail and a tail that may open one', () => {
    expect(visibleText('<think>plan</think>Answer', growing)).toBe('Answer');
    expect(visibleText('Answer <think>still thin', growing)).toBe('Answer');
    expect(visibleText('Answer <thi', growing)).toBe('Answer');
    expect(visibleText('a < b', growing)).toBe('a < b');
    expect(visibleText('a <', growing)).toBe('a');
    expect(visibleText('a <', { ...growing, final: true })).toBe('a <');
  });

  test('in text tool mode nothing from the first <tool_call on, nor a tail that may begin one', () => {
    expect(visibleText('Let me look.\n<tool_call>\n{"name": "x"', textTools)).toBe('Let me look.');
    expect(visibleText('Let me look.\n<tool_c', textTools)).toBe('Let me look.');
    expect(visibleText('Let me look.\n<tool_call>{}</tool_call>\nafter', { ...textTools, final: true })).toBe(
      'Let me look.',
    );
    expect(visibleText('<think><tool_call>thought</think>Done', textTools)).toBe('Done');
    // without the text protocol a <tool_call> is ordinary text
    expect(visibleText('see <tool_call>', growing)).toBe('see <tool_call>');
  });
});

describe('createTextFeed', () => {
  test('reports each change once, restarts with "" only after text, and swallows listener errors', () => {
    const seen: string[] = [];
    const errors: unknown[] = [];
    const feed = createTextFeed(
      (t) => {
        seen.push(t);
        if (t === 'boom') throw new Error('listener bug');
      },
      (e) => errors.push(e),
    );
    feed.restart();
    feed.report('a');
    feed.report('a');
    feed.report('ab');
    feed.restart();
    feed.restart();
    feed.report('boom');
    expect(seen).toEqual(['a', 'ab', '', 'boom']);
    expect(errors).toHaveLength(1);
  });
});
