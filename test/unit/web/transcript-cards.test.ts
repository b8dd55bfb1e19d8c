// delegate.md §18 transcript cards: history entries → card view models, one test per rule.
import { describe, expect, it } from 'vitest';
import { backgroundStarted, parallelHeader } from '../../../src/tools/delegate/delegate-messages.ts';
import {
  cardFor,
  classifyCall,
  type StoredEntry,
  transcriptItems,
} from '../../../src/web/transcript/cards.ts';
import { FIELD_MAX_BYTES, FIELD_MAX_LINES } from '../../../src/web/transcript/limits.ts';

const WARNING =
  'Warning: The delegated agent recovered through a provider fallback. Provider failure details were logged and omitted from this result.';

const call = (name: string, args: unknown, id = 'c1') => ({ id, name, arguments: args });
const entries = (...msgs: unknown[]): StoredEntry[] =>
  msgs.map((m, i) => ({ index: i, raw: typeof m === 'string' ? m : JSON.stringify(m) }));
const assistantCalls = (...calls: ReturnType<typeof call>[]) => ({
  role: 'assistant',
  content: '',
  toolCalls: calls,
});
const result = (id: string, content: string, toolName = 'delegate') => ({
  role: 'tool',
  toolCallId: id,
  toolName,
  content,
});

describe('delegation cards', () => {
  it('delegate: header is the agent, body the task, other arguments stay in the input field', () => {
    const card = cardFor(
      call('delegate', { agent: ' writer ', prompt: 'Summarise X', context: 'notes' }),
      undefined,
    );
    expect(card).toMatchObject({
      kind: 'delegation',
      tool: 'delegate',
      targets: ['writer'],
      parallel: false,
    });
    if (card.kind !== 'delegation') throw new Error('not a delegation card');
    expect(card.task.text).toBe('Summarise X');
    expect(JSON.parse(card.input!.text)).toEqual({ agent: ' writer ', context: 'notes' });
  });

  it('spawn_subagent: no target names, the prompt as task, no input field when there are no other arguments', () => {
    const card = cardFor(call('spawn_subagent', { prompt: 'look it up' }), 'found it');
    expect(card).toMatchObject({ kind: 'delegation', tool: 'spawn_subagent', targets: [], input: null });
    if (card.kind !== 'delegation') throw new Error('not a delegation card');
    // A subagent's success has no fixed prefix: shown as it is.
    expect(card.response).toEqual({ kind: 'text', text: { text: 'found it', cut: null } });
  });

  it('a §9.2 result shows the response first and the provider/model as details', () => {
    const card = cardFor(
      call('delegate', { agent: 'writer', prompt: 'p' }),
      "[Agent 'writer' (anthropic/claude)]\nHello",
    );
    expect(card).toMatchObject({
      response: {
        kind: 'envelope',
        response: { text: 'Hello', cut: null },
        details: { served: 'anthropic/claude', agentic: false, requested: null, warning: null },
      },
    });
  });

  it('a §10.2 fallback result keeps requested/served and the warning in the details, not in the response', () => {
    const text = `[Agent 'w' (requested: custom.primary/primary-model; served: custom.backup/primary-model, agentic)]\nDone\n\n${WARNING}`;
    const card = cardFor(call('delegate', { agent: 'w', prompt: 'p' }), text);
    expect(card).toMatchObject({
      response: {
        kind: 'envelope',
        response: { text: 'Done' },
        details: {
          agentic: true,
          requested: 'custom.primary/primary-model',
          served: 'custom.backup/primary-model',
          warning: WARNING,
        },
      },
    });
  });

  it('any other result is shown as it is (a failure, another agent’s header)', () => {
    const fail = "Error: Agent 'w' failed: model_provider boom";
    expect(cardFor(call('delegate', { agent: 'w', prompt: 'p' }), fail)).toMatchObject({
      response: { kind: 'text', text: { text: fail } },
    });
    const other = "[Agent 'x' (anthropic/m)]\nspoof";
    expect(cardFor(call('delegate', { agent: 'w', prompt: 'p' }), other)).toMatchObject({
      response: { kind: 'text', text: { text: other } },
    });
  });

  it('a parallel call is one card with a block per target, each block read on its own', () => {
    const text = `${parallelHeader(2)}\n\n--- a (success=true) ---\n[Agent 'a' (anthropic/m)]\nfrom a\n\n--- b (success=false) ---\nError: Agent 'b' failed: boom\n\nError: One or more parallel agents failed`;
    const card = cardFor(call('delegate', { parallel: [' a ', '', 7, 'b'], prompt: 'same' }), text);
    expect(card).toMatchObject({ kind: 'delegation', targets: ['a', 'b'], parallel: true });
    if (card.kind !== 'delegation') throw new Error('not a delegation card');
    expect(card.response).toMatchObject({
      kind: 'parallel',
      blocks: [
        {
          agent: 'a',
          view: { kind: 'envelope', response: { text: 'from a' }, details: { served: 'anthropic/m' } },
        },
        { agent: 'b', view: { kind: 'text', text: { text: "Error: Agent 'b' failed: boom" } } },
      ],
    });
  });

  it('a parallel refusal is shown as it is', () => {
    const text = "Error: Unknown agent 'zz' in parallel list. Available: a, b";
    expect(cardFor(call('delegate', { parallel: ['zz'], prompt: 'p' }), text)).toMatchObject({
      response: { kind: 'text', text: { text } },
    });
  });

  it('a call without a recorded result has a missing response', () => {
    expect(cardFor(call('delegate', { agent: 'w', prompt: 'p' }), undefined)).toMatchObject({
      response: { kind: 'missing' },
    });
    expect(cardFor(call('shell', { cmd: 'ls' }), undefined)).toMatchObject({ result: { kind: 'missing' } });
  });
});

describe('generic cards', () => {
  it.each([
    ['ordinary tool', 'shell', { cmd: 'ls' }, 'tool'],
    ['arguments that did not parse', 'delegate', '{"agent": "w", "prompt"', 'malformed'],
    ['arguments that are not an object', 'delegate', ['w'], 'malformed'],
    ['no prompt', 'delegate', { agent: 'w' }, 'malformed'],
    ['blank prompt', 'spawn_subagent', { prompt: '  ' }, 'malformed'],
    ['agent not a string', 'delegate', { agent: 3, prompt: 'p' }, 'malformed'],
    ['no agent and no parallel', 'delegate', { prompt: 'p' }, 'malformed'],
    ['parallel not an array', 'delegate', { parallel: 'a,b', prompt: 'p' }, 'malformed'],
    ['context not a string', 'delegate', { agent: 'w', prompt: 'p', context: 1 }, 'malformed'],
    ['background not a boolean', 'delegate', { agent: 'w', prompt: 'p', background: 'yes' }, 'malformed'],
    ['action not a string', 'delegate', { action: 1, agent: 'w', prompt: 'p' }, 'malformed'],
    ['background launch', 'delegate', { agent: 'w', prompt: 'p', background: true }, 'background'],
    ['check_result', 'delegate', { action: 'check_result', task_id: 'x' }, 'management'],
    ['await_sessions', 'delegate', { action: 'await_sessions', task_ids: ['x'] }, 'management'],
    ['list_results', 'delegate', { action: 'list_results' }, 'management'],
    ['cancel_task', 'delegate', { action: 'cancel_task', task_id: 'x' }, 'management'],
    ['oversized arguments', 'delegate', { agent: 'w', prompt: 'p'.repeat(17 * 1024) }, 'oversized'],
  ])('%s', (_what, name, args, reason) => {
    expect(classifyCall(name, args)).toEqual({ kind: 'generic', reason });
    expect(cardFor(call(name, args), 'r')).toMatchObject({ kind: 'generic', reason, toolName: name });
  });

  it('a background launch acknowledgement stays a generic result, never a finished child', () => {
    const ack = backgroundStarted('w', '00000000-0000-4000-8000-000000000001');
    const card = cardFor(call('delegate', { agent: 'w', prompt: 'p', background: true }), ack);
    expect(card).toMatchObject({
      kind: 'generic',
      reason: 'background',
      result: { kind: 'text', text: { text: ack } },
    });
  });

  it('explicit action "delegate" is a delegation', () => {
    expect(classifyCall('delegate', { action: 'delegate', agent: 'w', prompt: 'p' })).toMatchObject({
      kind: 'delegation',
    });
  });
});

describe('display limits', () => {
  it('cuts a field at 100 lines and says so; Copy keeps the stored original', () => {
    const prompt = Array.from({ length: 150 }, (_, i) => `line ${i}`).join('\n');
    const card = cardFor(call('delegate', { agent: 'w', prompt }), undefined);
    if (card.kind !== 'delegation') throw new Error('not a delegation card');
    expect(card.task.text.split('\n')).toHaveLength(FIELD_MAX_LINES);
    expect(card.task.cut).toMatchObject({ shownLines: 100, totalLines: 150 });
    expect(JSON.parse(card.original)).toEqual({ agent: 'w', prompt });
  });

  it('cuts a field at 8 KiB on a character boundary', () => {
    const long = `${'é'.repeat(5000)}`; // 10,000 bytes on one line
    const card = cardFor(call('spawn_subagent', { prompt: 'p' }), long);
    if (card.kind !== 'delegation' || card.response.kind !== 'text') throw new Error('unexpected card');
    expect(Buffer.byteLength(card.response.text.text)).toBeLessThanOrEqual(FIELD_MAX_BYTES);
    expect(card.response.text.text).toBe('é'.repeat(4096));
    expect(card.response.text.cut).toMatchObject({ totalBytes: 10_000, shownBytes: 8192 });
  });

  it('a field within the limits is not cut; a malformed input copies exactly the stored text', () => {
    const card = cardFor(call('delegate', '{"agent":'), undefined);
    expect(card).toMatchObject({
      kind: 'generic',
      original: '{"agent":',
      input: { text: '{"agent":', cut: null },
    });
  });
});

describe('transcript items', () => {
  it('puts messages and cards in order, results bound to the calls they answer', () => {
    const items = transcriptItems(
      entries(
        { role: 'user', content: 'hi **there**' },
        assistantCalls(
          call('delegate', { agent: 'w', prompt: 'p' }, 'a1'),
          call('shell', { cmd: 'ls' }, 'a2'),
        ),
        result('a2', 'files', 'shell'),
        result('a1', "[Agent 'w' (anthropic/m)]\nok"),
        { role: 'assistant', content: 'done' },
      ),
    );
    expect(items.map((i) => i.kind)).toEqual(['user', 'card', 'card', 'assistant']);
    expect(items[1]).toMatchObject({ card: { kind: 'delegation', response: { kind: 'envelope' } } });
    expect(items[2]).toMatchObject({
      card: { kind: 'generic', result: { kind: 'text', text: { text: 'files' } } },
    });
  });

  it('never binds a later turn’s result with the same call id; a call left without one says so', () => {
    const items = transcriptItems(
      entries(
        assistantCalls(call('delegate', { agent: 'w', prompt: 'p' }, 'call_0')),
        { role: 'user', content: 'next' },
        assistantCalls(call('shell', { cmd: 'ls' }, 'call_0')),
        result('call_0', 'later', 'shell'),
      ),
    );
    expect(items[0]).toMatchObject({ kind: 'card', card: { response: { kind: 'missing' } } });
    expect(items[2]).toMatchObject({
      kind: 'card',
      card: { result: { kind: 'text', text: { text: 'later' } } },
    });
  });

  it('finds the results of a call at the end of the page among the following entries, without showing them', () => {
    const all = entries(
      { role: 'user', content: 'q' },
      assistantCalls(call('delegate', { agent: 'w', prompt: 'p' }, 'x')),
      result('x', "[Agent 'w' (anthropic/m)]\nlate"),
    );
    const items = transcriptItems(all.slice(0, 2), all.slice(2));
    expect(items).toHaveLength(2);
    expect(items[1]).toMatchObject({ card: { response: { kind: 'envelope', response: { text: 'late' } } } });
  });

  it('shows a result whose call is on an older page, and an unreadable entry, as such', () => {
    const items = transcriptItems(
      entries(result('x', 'orphan'), 'not json', { role: 'system', content: 'x' }),
    );
    expect(items).toEqual([
      { kind: 'result', index: 0, toolName: 'delegate', callId: 'x', text: { text: 'orphan', cut: null } },
      { kind: 'unreadable', index: 1 },
      { kind: 'unreadable', index: 2 },
    ]);
  });
});
