// The demo's model, answering like a capable one would: `main` delegates the question to `sysadmin`, which runs
// `df -h .` in its workspace and reads the figure off its output; `main` passes the answer on.
import type { RecordedRequest, ScriptedTurn } from '../fakes/model-server.ts';

type Message = Record<string, unknown>;

const lastOf = (req: RecordedRequest): Message | undefined => req.body.messages?.at(-1);
const textOf = (m: Message | undefined) =>
  typeof m?.content === 'string' ? m.content : JSON.stringify(m?.content ?? '');

/** The figure a tool result reports: a `df` use percentage, or the sentence sysadmin answered with. */
function usageIn(result: string): string | undefined {
  return /disk is \d+% full/.exec(result)?.[0] ?? /(\d+)%/.exec(result)?.[1];
}

export function demoModel(req: RecordedRequest): ScriptedTurn {
  const last = lastOf(req);
  const fromTool = last?.role === 'tool';
  if (req.body.model === 'sysadmin-model') {
    if (!fromTool) return { toolCalls: [{ name: 'shell', arguments: { command: 'df -h .' } }] };
    const result = textOf(last);
    const pct = usageIn(result);
    return {
      text: pct
        ? `The disk is ${pct}% full (df -h . in my workspace).`
        : `I could not run df: ${result.slice(0, 200)}`,
    };
  }
  if (!fromTool) {
    return {
      toolCalls: [{ name: 'delegate', arguments: { agent: 'sysadmin', prompt: 'How full is the disk?' } }],
    };
  }
  const result = textOf(last);
  const answer = usageIn(result);
  return {
    text: answer?.startsWith('disk')
      ? `I asked sysadmin, and the ops room approved the check: the ${answer}.`
      : `sysadmin could not check the disk: ${result.slice(0, 300)}`,
  };
}
