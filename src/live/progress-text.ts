// The progress message of a turn (live.md §3), rendered from its live execution tree: what runs now and what has
// finished, never tool results, reasoning, or anything redaction removes (argument summaries are the redacted
// ones of the events). Pure: the presenter decides when to show it.
import type { RunNode, ToolNode } from '../run-contract/run-tree.ts';
import { elapsedText } from './live-messages.ts';

export type ProgressMode = 'compact' | 'verbose';

/** Compact shows this many finished lines, plus every running one. */
const COMPACT_FINISHED = 5;
const SUMMARY_CHARS = 80;

interface Line {
  text: string;
  running: boolean;
  at: number;
}

/** One short argument summary, as code so nothing in it is read as Markdown. */
function argsOf(summary: string): string {
  const flat = summary.replace(/\s+/g, ' ').replace(/`/g, "'").trim();
  if (flat === '') return '';
  const cut = [...flat].length > SUMMARY_CHARS ? `${[...flat].slice(0, SUMMARY_CHARS - 1).join('')}…` : flat;
  return ` \`${cut}\``;
}

function toolLine(t: ToolNode, indent: string, at: number): Line {
  const mark = t.state === 'running' ? '⏳' : t.state === 'succeeded' ? '✅' : '❌';
  const took = t.durationMs === null ? '' : ` (${elapsedText(t.durationMs)})`;
  return {
    text: `${indent}${mark} ${t.tool}${argsOf(t.argsSummary)}${took}`,
    running: t.state === 'running',
    at,
  };
}

const kindLabel = (n: RunNode) =>
  n.kind === 'subagent' ? 'subagent' : `${n.agent} (${n.kind}${n.mode ? `, ${n.mode}` : ''})`;

/** A child run on one line: its target, kind and mode, and what it is doing now. */
function childLine(n: RunNode, indent: string): Line {
  const current = n.tools.findLast((t) => t.state === 'running');
  const doing =
    n.state !== 'running'
      ? n.state === 'completed'
        ? 'done'
        : n.state.replace('_', ' ')
      : current
        ? `running ${current.tool}`
        : `thinking (iteration ${Math.max(1, n.iterations)})`;
  const mark = n.state === 'running' ? '🔄' : n.state === 'completed' ? '✅' : '❌';
  return {
    text: `${indent}${mark} ↳ ${kindLabel(n)}: ${doing}`,
    running: n.state === 'running',
    at: n.startedAt,
  };
}

function approvalLines(n: RunNode, origin: { channel: string; chat: string }, indent: string): Line[] {
  return n.approvals
    .filter((a) => a.state === 'pending')
    .map((a) => {
      const where = a.sentTo === origin.channel && a.chat === origin.chat ? 'this chat' : a.sentTo;
      return {
        text: `${indent}🛂 ${a.tool} waits for approval (sent to ${where})`,
        running: true,
        at: n.startedAt,
      };
    });
}

function linesOf(
  n: RunNode,
  mode: ProgressMode,
  origin: { channel: string; chat: string },
  depth: number,
): Line[] {
  const indent = '  '.repeat(depth);
  const lines: Line[] = [];
  n.tools.forEach((t, i) => {
    // A child run's line stands for the tool call that started it.
    if (n.children.some((c) => c.parentToolCallId === t.toolCallId)) return;
    lines.push(toolLine(t, indent, n.startedAt + i));
  });
  lines.push(...approvalLines(n, origin, indent));
  for (const b of n.backgroundTasks) {
    lines.push({
      text: `${indent}🧵 background task ${b.taskId} (${b.target}) started`,
      running: false,
      at: n.startedAt,
    });
  }
  for (const c of n.children) {
    lines.push(childLine(c, indent));
    if (mode === 'verbose') lines.push(...linesOf(c, mode, origin, depth + 1));
    else lines.push(...approvalLines(c, origin, `${indent}  `));
  }
  return lines;
}

/** The progress message now: a header, then the lines (compact: the 5 latest finished and every running one). */
export function progressText(
  root: RunNode,
  mode: ProgressMode,
  origin: { channel: string; chat: string },
  now: number,
): string {
  const all = linesOf(root, mode, origin, 0);
  const shown =
    mode === 'verbose'
      ? all
      : all.filter(
          (l, i) => l.running || all.slice(i + 1).filter((x) => !x.running).length < COMPACT_FINISHED,
        );
  return [`⚙️ Working… ${elapsedText(now - root.startedAt)}`, ...shown.map((l) => l.text)].join('\n');
}

function countTree(n: RunNode): { tools: number; children: string[] } {
  let tools = n.tools.filter((t) => !n.children.some((c) => c.parentToolCallId === t.toolCallId)).length;
  const children: string[] = [];
  for (const c of n.children) {
    children.push(c.kind === 'subagent' ? 'subagent' : c.agent);
    const sub = countTree(c);
    tools += sub.tools;
    children.push(...sub.children);
  }
  return { tools, children };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The tree's spend in micro-dollars, or null when no hop of it is priced. */
function treeCost(n: RunNode): number | null {
  let sum = n.costMicroUsd;
  for (const c of n.children) {
    const sub = treeCost(c);
    if (sub !== null) sum = (sum ?? 0) + sub;
  }
  return sum;
}

/** The one-line summary the progress message ends as (live.md §3): with the turn's cost when it is known. */
export function progressSummary(root: RunNode, elapsedMs: number): string {
  const micro = treeCost(root);
  const costUsd = micro === null ? null : micro / 1e6;
  const { tools, children } = countTree(root);
  const head =
    root.state === 'completed' || root.state === 'running'
      ? '✔️ Done in'
      : root.state === 'cancelled'
        ? '⏹️ Stopped after'
        : '⚠️ Ended after';
  const parts = [`${head} ${elapsedText(elapsedMs)}`, plural(tools, 'tool call', 'tool calls')];
  if (children.length > 0) {
    const names = [...new Set(children)].join(', ');
    parts.push(`${plural(children.length, 'child run', 'child runs')} (${names})`);
  }
  if (costUsd !== null) parts.push(`$${costUsd.toFixed(4)}`);
  return parts.join(' · ');
}
