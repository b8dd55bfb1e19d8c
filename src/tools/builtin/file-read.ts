// The file_read tool: reads a text file inside the workspace or allowed roots, never through an escaping symlink.
import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { fail, ok, type Tool } from '../../run-contract/tool.ts';
import { checkPath } from '../../security/path-guard.ts';
import { paths as text } from '../../security/security-messages.ts';
import { guardedExecute } from './tool-support.ts';

const NAME = 'file_read';
export const FILE_READ_CAP_BYTES = 512 * 1024;

export const fileReadInput = z.object({ path: z.string() });
export type FileReadInput = z.infer<typeof fileReadInput>;

export function createFileReadTool(): Tool<FileReadInput> {
  return {
    name: NAME,
    description: "Read a text file. Relative paths are taken from the agent's workspace.",
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path, relative to the workspace or absolute' },
      },
      required: ['path'],
      additionalProperties: false,
    },
    input: fileReadInput,
    execute: guardedExecute(NAME, fileReadInput, async ({ path }, { run }) => {
      const check = checkPath(run.policy, path, 'read');
      if (!check.ok) return fail(check.error);
      const info = await stat(check.path).catch(() => null);
      if (!info) return fail(text.notFound(path));
      if (!info.isFile()) return fail(text.notAFile(path));
      if (info.size > FILE_READ_CAP_BYTES) return fail(text.tooLarge(path, info.size, FILE_READ_CAP_BYTES));
      return ok(await readFile(check.path, 'utf8'));
    }),
  };
}
