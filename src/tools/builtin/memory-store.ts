// The memory_store tool: saves a note under a key in the agent's own memory.
import { z } from 'zod';
import { fail, ok, type Tool } from '../../run-contract/tool.ts';
import { agentWorkspace, memorySlug, writeMemory } from './memory-files.ts';
import { chargeAction, guardedExecute, readOnlyBlock } from './tool-support.ts';

const NAME = 'memory_store';
export const MEMORY_CONTENT_CAP_CHARS = 64 * 1024;

export const memoryStoreInput = z.object({ key: z.string(), content: z.string() });
export type MemoryStoreInput = z.infer<typeof memoryStoreInput>;

export function createMemoryStoreTool(): Tool<MemoryStoreInput> {
  return {
    name: NAME,
    description:
      'Remember something for later: store content under a short key (storing a key again replaces it).',
    parameters: {
      type: 'object',
      properties: {
        key: { type: 'string', description: 'Short name for the memory, e.g. "user-timezone"' },
        content: { type: 'string', description: 'What to remember' },
      },
      required: ['key', 'content'],
      additionalProperties: false,
    },
    input: memoryStoreInput,
    execute: guardedExecute(NAME, memoryStoreInput, async ({ key, content }, { run }) => {
      const refused = readOnlyBlock(run, NAME);
      if (refused) return refused;
      const slug = memorySlug(key);
      if (!slug)
        return fail("Missing or empty 'key' parameter: a memory key needs at least one letter or digit");
      if (content.trim() === '') return fail("Missing or empty 'content' parameter");
      if (content.length > MEMORY_CONTENT_CAP_CHARS) {
        return fail(
          `Memory content too large: ${content.length} characters (limit ${MEMORY_CONTENT_CAP_CHARS})`,
        );
      }
      const workspace = agentWorkspace(run, run.agentAlias);
      if (!workspace) return fail(`No workspace configured for agent '${run.agentAlias}'`);
      const spent = await chargeAction(run);
      if (spent) return spent;
      await writeMemory(workspace, slug, key.trim(), content.trim());
      return ok(`Stored memory '${key.trim()}'`);
    }),
  };
}
