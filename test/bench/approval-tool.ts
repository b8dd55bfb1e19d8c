// The approval bench's model and tool: the model calls `bench_mark` (always_ask) once per user message, then
// answers `done`; the tool stamps the moment its execute() begins, which is where the measured interval ends.
import { z } from 'zod';
import type { ModelProvider } from '../../src/providers/types.ts';
import { ok, type Tool } from '../../src/run-contract/tool.ts';
import { type BuildToolSet, createToolRegistry } from '../../src/run-contract/tool-registry.ts';
import { buildToolSet } from '../../src/tools/tool-set.ts';

export const MARK_TOOL = 'bench_mark';

export function createMarkProvider(): ModelProvider {
  const label = { provider: 'bench.mark', providerType: 'bench', model: 'mark' };
  let seq = 0;
  return {
    requested: label,
    toolProtocol: 'native',
    async complete(req) {
      const last = req.messages.at(-1);
      const call = last?.role === 'user';
      return {
        text: call ? '' : 'done',
        toolCalls: call ? [{ id: `m${++seq}`, name: MARK_TOOL, arguments: { round: last.content } }] : [],
        usage: { inputTokens: 1, outputTokens: 1 },
        requested: label,
        served: label,
        fallbackUsed: false,
      };
    },
  };
}

/** Resolves `started(round)` with performance.now() taken as the tool's execute() begins. */
export function createMarkTool() {
  const waiting = new Map<string, (at: number) => void>();
  const tool: Tool<{ round: string }> = {
    name: MARK_TOOL,
    description: 'Benchmark marker.',
    parameters: { type: 'object', properties: { round: { type: 'string' } }, required: ['round'] },
    input: z.object({ round: z.string() }),
    async execute(input) {
      const at = performance.now();
      waiting.get(input.round)?.(at);
      waiting.delete(input.round);
      return ok('marked');
    },
  };
  const withMark: BuildToolSet = (run, opts) => {
    const base = buildToolSet(run, opts);
    return createToolRegistry([...base.names.map((n) => base.get(n)!), tool as Tool]);
  };
  return {
    buildToolSet: withMark,
    started: (round: string) => new Promise<number>((resolve) => waiting.set(round, resolve)),
  };
}
