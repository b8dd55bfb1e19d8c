// The file_write tool: writes a file atomically inside the workspace or writable roots, refusing symlink escapes.
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { fail, ok, type Tool } from '../../run-contract/tool.ts';
import { writesExecConfig } from '../../security/exec-config.ts';
import { checkPath } from '../../security/path-guard.ts';
import { paths as text } from '../../security/security-messages.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { gateExecConfigWrite } from './exec-config-gate.ts';
import { chargeAction, guardedExecute, readOnlyBlock } from './tool-support.ts';

const NAME = 'file_write';
export const FILE_WRITE_CAP_BYTES = 5 * 1024 * 1024;

export const fileWriteInput = z.object({ path: z.string(), content: z.string() });
export type FileWriteInput = z.infer<typeof fileWriteInput>;

export function createFileWriteTool(): Tool<FileWriteInput> {
  return {
    name: NAME,
    description:
      "Write a text file, replacing it if it exists and creating parent directories. Relative paths are taken from the agent's workspace.",
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path, relative to the workspace or absolute' },
        content: { type: 'string', description: 'The complete new file content' },
      },
      required: ['path', 'content'],
      additionalProperties: false,
    },
    input: fileWriteInput,
    execute: guardedExecute(
      NAME,
      fileWriteInput,
      async ({ path, content }, { run, signal, deferredApproval }) => {
        const refused = readOnlyBlock(run, NAME);
        if (refused) return refused;
        const check = checkPath(run.policy, path, 'write');
        if (!check.ok) return fail(check.error);
        const size = Buffer.byteLength(content, 'utf8');
        if (size > FILE_WRITE_CAP_BYTES) return fail(text.contentTooLarge(size, FILE_WRITE_CAP_BYTES));
        const existing = await stat(check.path).catch(() => null);
        if (existing && !existing.isFile()) return fail(text.notAFile(path));
        // The gate left the prompt here when it judged this an execution-config write: asked once, whatever.
        const execConfig = writesExecConfig(run.policy.workspaceDir, path);
        if (execConfig || deferredApproval?.length) {
          const args = { path, content };
          const held = await gateExecConfigWrite(run, NAME, args, signal, deferredApproval, execConfig);
          if (held) return held;
        }
        const spent = await chargeAction(run);
        if (spent) return spent;
        await writeFileAtomic(check.path, content);
        return ok(`Wrote ${size} bytes to ${path}`);
      },
    ),
  };
}
