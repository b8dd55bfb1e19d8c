// The memory_recall tool: searches the memories of every agent on the run's memory allowlist, best matches first.
import { z } from 'zod';
import { fail, ok, type Tool } from '../../run-contract/tool.ts';
import { agentWorkspace, type MemoryEntry, readMemories } from './memory-files.ts';
import { guardedExecute } from './tool-support.ts';

const NAME = 'memory_recall';
export const RECALL_MAX_ENTRIES = 10;
export const RECALL_OUTPUT_CAP_CHARS = 8000;
const ENTRY_CAP_CHARS = 1500;

export const memoryRecallInput = z.object({ query: z.string() });
export type MemoryRecallInput = z.infer<typeof memoryRecallInput>;

const terms = (q: string) => [
  ...new Set(
    q
      .toLowerCase()
      .split(/[^\p{L}\p{N}_]+/u)
      .filter((t) => t !== ''),
  ),
];

function countOf(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** Matches in the key weigh double: a key names what the memory is about. */
function score(entry: MemoryEntry, queryTerms: readonly string[]): number {
  const key = entry.key.toLowerCase();
  const content = entry.content.toLowerCase();
  return queryTerms.reduce((sum, t) => sum + 2 * countOf(key, t) + countOf(content, t), 0);
}

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max)}…` : s);

export function createMemoryRecallTool(): Tool<MemoryRecallInput> {
  return {
    name: NAME,
    description: 'Search remembered notes (this agent and the agents whose memory it may read) by keywords.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'Keywords to search for' } },
      required: ['query'],
      additionalProperties: false,
    },
    input: memoryRecallInput,
    execute: guardedExecute(NAME, memoryRecallInput, async ({ query }, { run }) => {
      const queryTerms = terms(query);
      if (queryTerms.length === 0) return fail("Missing or empty 'query' parameter");
      // The allowlist is the only authority; the run's own alias is always on it.
      const aliases = [...new Set([run.agentAlias, ...run.memoryAllowlist.map((a) => a.trim())])];
      const hits: { alias: string; entry: MemoryEntry; score: number }[] = [];
      for (const alias of aliases) {
        const workspace = agentWorkspace(run, alias);
        if (!workspace) continue;
        for (const entry of await readMemories(workspace)) {
          const s = score(entry, queryTerms);
          if (s > 0) hits.push({ alias, entry, score: s });
        }
      }
      if (hits.length === 0) return ok(`No memories found matching '${query.trim()}'`);
      hits.sort((a, b) => b.score - a.score || b.entry.updatedAtMs - a.entry.updatedAtMs);
      const lines: string[] = [];
      let size = 0;
      for (const h of hits.slice(0, RECALL_MAX_ENTRIES)) {
        const line = `[${h.alias}] ${h.entry.key}: ${clip(h.entry.content, ENTRY_CAP_CHARS)}`;
        if (size + line.length > RECALL_OUTPUT_CAP_CHARS && lines.length > 0) break;
        lines.push(clip(line, RECALL_OUTPUT_CAP_CHARS));
        size += line.length + 1;
      }
      return ok(lines.join('\n'));
    }),
  };
}
