// live.md §3: the progress message's lines and its closing summary, from a turn's run events.
import { describe, expect, it } from 'vitest';
import { progressSummary, progressText } from '../../../src/live/progress-text.ts';
import type { RunEvent, RunEventBody } from '../../../src/run-contract/run-events.ts';
import { buildRunTree } from '../../../src/run-contract/run-tree.ts';

const ROOT = 'root-run';
const ORIGIN = { channel: 'telegram.home', chat: '7' };
let seq = 0;
const ev = (
  run: string,
  body: RunEventBody,
  parent: [string, string] | null = null,
  at = 1000 + seq,
): RunEvent => ({
  root_run_id: ROOT,
  run_id: run,
  parent_run_id: parent?.[0] ?? null,
  parent_tool_call_id: parent?.[1] ?? null,
  at,
  seq: ++seq,
  ...body,
});
const started = (
  run: string,
  kind: 'root' | 'delegate' | 'subagent',
  agent: string,
  parent?: [string, string],
) =>
  ev(
    run,
    {
      type: 'run_started',
      kind,
      agent,
      session_key: 's',
      ...(kind === 'delegate' ? { mode: 'bounded' } : {}),
    },
    parent,
  );
const tool = (run: string, id: string, name: string, args = '') =>
  ev(run, { type: 'tool_started', tool_call_id: id, tool: name, args_summary: args });
const done = (run: string, id: string, name: string, ms = 1500) =>
  ev(run, { type: 'tool_finished', tool_call_id: id, tool: name, success: true, duration_ms: ms });
const rootOf = (events: RunEvent[]) => buildRunTree(events).find((n) => n.runId === ROOT)!;

describe('progress message', () => {
  it('names tools with their summaries, children with alias, kind and what they do, and where an approval went', () => {
    const events = [
      started(ROOT, 'root', 'main'),
      tool(ROOT, 't1', 'shell', 'command: `ls -la`'),
      done(ROOT, 't1', 'shell'),
      tool(ROOT, 'p1', 'delegate', 'parallel: writer, checker'),
      started('w', 'delegate', 'writer', [ROOT, 'p1']),
      started('c', 'delegate', 'checker', [ROOT, 'p1']),
      tool('w', 'w1', 'web_fetch', 'url: https://example.com'),
      ev('c', { type: 'model_request', iteration: 2 }, [ROOT, 'p1']),
      ev(
        'c',
        { type: 'approval_pending', approval_id: 'a1', tool: 'shell', sent_to: 'slack.ops', chat: 'C1' },
        [ROOT, 'p1'],
      ),
      tool(ROOT, 'r1', 'file_read', 'path: a.txt'),
      ev(ROOT, {
        type: 'approval_pending',
        approval_id: 'a2',
        tool: 'file_read',
        sent_to: 'telegram.home',
        chat: '7',
      }),
    ];
    const text = progressText(rootOf(events), 'compact', ORIGIN, 1000 + 12_000);
    expect(text.split('\n')).toEqual([
      '⚙️ Working… 12s',
      "✅ shell `command: 'ls -la'` (2s)",
      '⏳ file_read `path: a.txt`',
      '🛂 file_read waits for approval (sent to this chat)',
      '🔄 ↳ writer (delegate, bounded): running web_fetch',
      '🔄 ↳ checker (delegate, bounded): thinking (iteration 2)',
      '  🛂 shell waits for approval (sent to slack.ops)',
    ]);
    // Verbose adds what the children do, one level in.
    expect(progressText(rootOf(events), 'verbose', ORIGIN, 13_000)).toContain(
      '  ⏳ web_fetch `url: https://example.com`',
    );
  });

  it('compact keeps the 5 latest finished lines and every running one', () => {
    const events = [started(ROOT, 'root', 'main')];
    for (let i = 0; i < 8; i++)
      events.push(tool(ROOT, `t${i}`, `tool${i}`), done(ROOT, `t${i}`, `tool${i}`, 100));
    events.push(tool(ROOT, 'live', 'shell'));
    const lines = progressText(rootOf(events), 'compact', ORIGIN, 2000).split('\n').slice(1);
    expect(lines.map((l) => l.split(' ')[1])).toEqual(['tool3', 'tool4', 'tool5', 'tool6', 'tool7', 'shell']);
  });

  it('ends as one line: elapsed time, tool calls, child runs with their aliases, and the cost when known', () => {
    const events = [
      started(ROOT, 'root', 'main'),
      tool(ROOT, 't1', 'shell'),
      done(ROOT, 't1', 'shell'),
      tool(ROOT, 'd1', 'delegate'),
      started('w', 'delegate', 'writer', [ROOT, 'd1']),
      tool('w', 'w1', 'file_write'),
      done('w', 'w1', 'file_write'),
      ev('w', { type: 'cost', micro_usd: 1200 }, [ROOT, 'd1']),
      ev(ROOT, { type: 'cost', micro_usd: 3400 }),
      ev(ROOT, { type: 'run_finished', state: 'completed' }),
    ];
    expect(progressSummary(rootOf(events), 65_000)).toBe(
      '✔️ Done in 1m 05s · 2 tool calls · 1 child run (writer) · $0.0046',
    );
    const stopped = [started(ROOT, 'root', 'main'), ev(ROOT, { type: 'run_finished', state: 'cancelled' })];
    expect(progressSummary(rootOf(stopped), 3000)).toBe('⏹️ Stopped after 3s · 0 tool calls');
  });
});
