// Reading history back: damaged entries are skipped and tool calls never lose their results (or the reverse).
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/providers/types.ts';
import { chatMessageSchema, dropOrphans, readHistoryEntries } from '../../../src/session/history-entry.ts';
import { capturingLogger } from '../../helpers/providers.ts';

const call = (id: string) => ({ id, name: 'shell', arguments: { command: 'ls' } });
const result = (id: string): ChatMessage => ({
  role: 'tool',
  toolCallId: id,
  toolName: 'shell',
  content: id,
});

describe('history entries', () => {
  it('keeps a complete transcript unchanged', () => {
    const msgs: ChatMessage[] = [
      { role: 'user', content: 'u' },
      { role: 'assistant', content: '', toolCalls: [call('a'), call('b')] },
      result('a'),
      result('b'),
      { role: 'assistant', content: 'done' },
    ];
    expect(dropOrphans(msgs)).toEqual(msgs);
  });

  it('drops calls without results, results without calls, and reasoning of a partial call set', () => {
    const msgs: ChatMessage[] = [
      { role: 'user', content: 'u' },
      result('x'),
      {
        role: 'assistant',
        content: 'thinking',
        toolCalls: [call('a'), call('b')],
        reasoning: [{ text: 'r', providerOptions: {} }],
      },
      result('b'),
      result('z'),
      { role: 'assistant', content: '', toolCalls: [call('c')] },
      { role: 'user', content: 'v' },
    ];
    expect(dropOrphans(msgs)).toEqual([
      { role: 'user', content: 'u' },
      { role: 'assistant', content: 'thinking', toolCalls: [call('b')] },
      result('b'),
      { role: 'user', content: 'v' },
    ]);
  });

  it('logs and skips entries that are not JSON or not a message', () => {
    const log = capturingLogger();
    const raw = ['{"role":"user","content":"u"}', '{', '{"role":"tool","toolCallId":"a"}', '42'];
    expect(readHistoryEntries(raw, { logger: log.logger, key: 'h' })).toEqual([
      { role: 'user', content: 'u' },
    ]);
    expect(log.lines.filter((l) => l.includes('unreadable history entry skipped'))).toHaveLength(3);
    expect(log.lines.join('')).toContain('"key":"h[1]"');
  });

  it('reads every stored shape exactly as the schema does (the hand-checked fast path included)', () => {
    const entries: unknown[] = [
      { role: 'user', content: 'u' },
      { role: 'user', content: 'u', extra: 1 },
      { role: 'user', content: 3 },
      { role: 'assistant', content: 'a' },
      { role: 'assistant', content: '', toolCalls: [call('a')] },
      { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'shell' }] },
      { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 1, arguments: {} }] },
      { role: 'assistant', content: '', toolCalls: 'no' },
      { role: 'assistant', content: 'r', reasoning: [{ text: 'r', providerOptions: {} }] },
      { role: 'tool', toolCallId: 'a', toolName: 'shell', content: 'x' },
      { role: 'tool', toolCallId: 'a', toolName: 'shell', content: 'x', more: true },
      { role: 'tool', toolCallId: 'a', content: 'x' },
      { role: 'system', content: 's' },
      ['user'],
      null,
    ];
    const { logger } = capturingLogger();
    for (const e of entries) {
      const viaSchema = chatMessageSchema.safeParse(e);
      // Each entry alone: the orphan rule applies the same way to both readings.
      const read = readHistoryEntries([JSON.stringify(e)], { logger, key: 'h' });
      if (!viaSchema.success) expect(read, JSON.stringify(e)).toEqual([]);
      else expect(read, JSON.stringify(e)).toEqual(dropOrphans([viaSchema.data as ChatMessage]));
    }
  });
});
