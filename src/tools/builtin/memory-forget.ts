// The memory_forget tool: deletes one entry from the agent's own memory (never another agent's).
import { z } from 'zod';
import { fail, ok, type Tool } from '../../run-contract/tool.ts';
import { agentWorkspace, deleteMemory, memorySlug } from './memory-files.ts';
import { chargeAction, guardedExecute, readOnlyBlock } from './tool-support.ts';

const NAME = 'memory_forget';

export const memoryForgetInput = z.object({ key: z.string() });
export type MemoryForgetInput = z.infer<typeof memoryForgetInput>;

export function createMemoryForgetTool(): Tool<MemoryForgetInput> {
  return {
    name: NAME,
    description: "Forget one of this agent's own memories by its key.",
    parameters: {
      type: 'object',
      properties: { key: { type: 'string', description: 'The key the memory was stored under' } },
      required: ['key'],
      additionalProperties: false,
    },
    input: memoryForgetInput,
    execute: guardedExecute(NAME, memoryForgetInput, async ({ key }, { run }) => {
      const refused = readOnlyBlock(run, NAME);
      if (refused) return refused;
      const slug = memorySlug(key);
      if (!slug) return fail("Missing or empty 'key' parameter");
      const workspace = agentWorkspace(run, run.agentAlias);
      if (!workspace) return fail(`No workspace configured for agent '${run.agentAlias}'`);
      const spent = await chargeAction(run);
      if (spent) return spent;
      const removed = await deleteMemory(workspace, slug);
      return ok(removed ? `Forgot memory '${key.trim()}'` : `No memory found with key '${key.trim()}'`);
    }),
  };
}
