import { describe, expect, it } from 'vitest';
import {
  estimateFixedTokens,
  estimateMessageTokens,
  fitToWindow,
  historyTurns,
  IMAGE_TOKENS,
  SHORTENED_HEAD_CHARS,
  type WindowInput,
} from '../../../src/agent/history-window.ts';
import type { ChatMessage } from '../../../src/providers/types.ts';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const answer = (content: string): ChatMessage => ({ role: 'assistant', content });
const calls = (...ids: string[]): ChatMessage => ({
  role: 'assistant',
  content: '',
  toolCalls: ids.map((id) => ({ id, name: 'file_read', arguments: { path: id } })),
});
const result = (id: string, content: string): ChatMessage => ({
  role: 'tool',
  toolCallId: id,
  toolName: 'file_read',
  content,
});

/** A plain turn: question `q<n>`, answer `a<n>`. */
const plain = (n: number): ChatMessage[] => [user(`q${n}`), answer(`a${n}`)];
/** A turn with one tool pair whose result is `size` characters long. */
const withTool = (n: number, size: number): ChatMessage[] => [
  user(`q${n}`),
  calls(`c${n}`),
  result(`c${n}`, 'x'.repeat(size)),
  answer(`a${n}`),
];

const base = (history: ChatMessage[], maxTokens: number, maxHistoryMessages = 1000): WindowInput => ({
  system: 'sys',
  tools: [],
  history,
  current: user('now'),
  budget: { maxTokens, maxHistoryMessages },
});
const tokens = (ms: ChatMessage[]) => ms.reduce((n, m) => n + estimateMessageTokens(m), 0);
const fixed = (input: WindowInput) =>
  estimateFixedTokens(input.system, input.tools) + estimateMessageTokens(input.current);
const contents = (ms: ChatMessage[]) => ms.map((m) => m.content);

/** Every tool result follows an assistant message that called it, and every call has its result. */
function expectPaired(ms: ChatMessage[]) {
  const open = new Set<string>();
  for (const m of ms) {
    if (m.role === 'assistant') {
      expect(open.size).toBe(0);
      for (const c of m.toolCalls ?? []) open.add(c.id);
    }
    if (m.role === 'tool') expect(open.delete(m.toolCallId)).toBe(true);
    if (m.role === 'user') expect(open.size).toBe(0);
  }
  expect(open.size).toBe(0);
}

describe('fitToWindow', () => {
  it('sends everything, unchanged, when it fits', () => {
    const history = [...plain(1), ...withTool(2, 50)];
    const input = base(history, 10_000);
    const out = fitToWindow(input);
    expect(out.messages).toEqual([...history, user('now')]);
    expect(out).toMatchObject({ droppedMessages: 0, shortenedResults: 0, fits: true });
    expect(out.estimatedTokens).toBe(fixed(input) + tokens(history));
  });

  it('drops the oldest turns first and always keeps the current message', () => {
    const history = [...plain(1), ...plain(2), ...plain(3), ...plain(4)];
    const input = base(history, 0);
    input.budget.maxTokens = fixed(input) + tokens([...plain(3), ...plain(4)]);
    const out = fitToWindow(input);
    expect(contents(out.messages)).toEqual(['q3', 'a3', 'q4', 'a4', 'now']);
    expect(out.droppedMessages).toBe(4);
    expect(out.fits).toBe(true);
  });

  it('keeps the system prompt and the current message even when nothing else fits', () => {
    const out = fitToWindow(base([...plain(1)], 1));
    expect(out.messages).toEqual([user('now')]);
    expect(out.fits).toBe(false);
  });

  it('shortens old tool results, oldest first, before dropping any turn', () => {
    const history = [...withTool(1, 5000), ...withTool(2, 5000), ...plain(3)];
    const input = base(history, 0);
    // Room for everything with the first result shortened, not with both at full length.
    input.budget.maxTokens = fixed(input) + tokens(history) - 1000;
    const out = fitToWindow(input);
    expect(out.droppedMessages).toBe(0);
    expect(out.shortenedResults).toBe(1);
    const [first, second] = out.messages.filter((m) => m.role === 'tool');
    expect(first?.content).toBe(
      `${'x'.repeat(SHORTENED_HEAD_CHARS)}\n[… ${5000 - SHORTENED_HEAD_CHARS} chars omitted]`,
    );
    expect(second?.content).toBe('x'.repeat(5000));
    expectPaired(out.messages);
    expect(out.estimatedTokens).toBeLessThanOrEqual(input.budget.maxTokens);
  });

  it('drops whole turns, with their tool pairs, when shortening is not enough', () => {
    const history = [...withTool(1, 5000), ...withTool(2, 5000), ...plain(3)];
    const input = base(history, 0);
    const shortenedTurn = tokens(withTool(2, 0)) + 200;
    input.budget.maxTokens = fixed(input) + shortenedTurn + tokens(plain(3));
    const out = fitToWindow(input);
    expect(contents(out.messages).filter((c) => c.startsWith('q'))).toEqual(['q2', 'q3']);
    expect(out.droppedMessages).toBe(4);
    expectPaired(out.messages);
    expect(out.fits).toBe(true);
  });

  it('caps earlier messages at max_history_messages by whole turns', () => {
    const history = [...withTool(1, 10), ...plain(2), ...plain(3)];
    const out = fitToWindow(base(history, 10_000, 5));
    expect(contents(out.messages)).toEqual(['q2', 'a2', 'q3', 'a3', 'now']);
    expect(fitToWindow(base(history, 10_000, 0)).messages).toEqual([user('now')]);
  });

  it('never sends a result without its call or a call without its result', () => {
    const history = [
      answer('orphan before any user message'),
      user('q1'),
      calls('a', 'b'),
      result('a', 'ra'),
      result('zz', 'result of no call'),
      answer('a1'),
      user('q2'),
      calls('lost'),
      answer('a2'),
    ];
    const out = fitToWindow(base(history, 10_000));
    expectPaired(out.messages);
    expect(out.messages).toEqual([
      user('q1'),
      { ...calls('a') },
      result('a', 'ra'),
      answer('a1'),
      user('q2'),
      answer('a2'),
      user('now'),
    ]);
    expect(out.droppedMessages).toBe(history.length - 6);
  });

  it("trims a long run's transcript: history first, then earlier results, never the latest batch", () => {
    const history = [...withTool(1, 3000)];
    const inTurn = [calls('t1'), result('t1', 'y'.repeat(3000)), calls('t2'), result('t2', 'z'.repeat(3000))];
    const input = { ...base(history, 0), inTurn };
    input.budget.maxTokens = fixed(input) + tokens(inTurn) - 500;
    const out = fitToWindow(input);
    expect(out.droppedMessages).toBe(history.length);
    const results = out.messages.filter((m) => m.role === 'tool');
    expect(results.map((m) => m.content.length)).toEqual([
      SHORTENED_HEAD_CHARS + `\n[… ${3000 - SHORTENED_HEAD_CHARS} chars omitted]`.length,
      3000,
    ]);
    expect(out.messages[0]).toEqual(user('now'));
    expectPaired(out.messages);
    expect(out.fits).toBe(true);
  });

  it('does not change the history it was given', () => {
    const history = [...withTool(1, 5000), ...withTool(2, 5000)];
    const copy = structuredClone(history);
    fitToWindow(base(history, 100));
    expect(history).toEqual(copy);
  });

  it('counts the tool list in the budget', () => {
    const tools = [{ name: 'big', description: 'd'.repeat(3000), parameters: {} }];
    const withTools = { ...base([...plain(1)], 0), tools };
    withTools.budget.maxTokens = fixed({ ...withTools, tools: [] }) + tokens(plain(1));
    expect(fitToWindow({ ...withTools, tools: [] }).droppedMessages).toBe(0);
    expect(fitToWindow(withTools).droppedMessages).toBe(2);
  });
});

describe('historyTurns', () => {
  it('starts a turn at each user message', () => {
    expect(historyTurns([...plain(1), ...withTool(2, 1)]).map((t) => t.length)).toEqual([2, 4]);
  });
});

describe('images in the estimate', () => {
  it('counts each image part of a user message as IMAGE_TOKENS', () => {
    const image = { mediaType: 'image/png', data: new Uint8Array([0x89, 0x50]) };
    const plain = estimateMessageTokens(user('look'));
    const withTwo: ChatMessage = { role: 'user', content: 'look', images: [image, image] };
    expect(estimateMessageTokens(withTwo) - plain).toBe(2 * IMAGE_TOKENS);
  });
});
