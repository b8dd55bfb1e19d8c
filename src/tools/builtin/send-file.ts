// The send_file tool (media.md §2): a workspace file to the chat the turn came from, with the turn's answer.
// The path goes through file_read's policy; the platform's and the channel's size limits are checked here, so
// a file that cannot be sent is refused before anything is stored.
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { z } from 'zod';
import type { SendAs } from '../../media/attachment.ts';
import { sendFileTexts as text } from '../../media/media-messages.ts';
import { safeName } from '../../media/safe-name.ts';
import { mimeOf, sniffImage } from '../../media/sniff.ts';
import { fail, ok, type Tool } from '../../run-contract/tool.ts';
import { checkPath } from '../../security/path-guard.ts';
import { paths } from '../../security/security-messages.ts';
import { guardedExecute } from './tool-support.ts';

const NAME = 'send_file';

export const sendFileInput = z.object({
  path: z.string().min(1),
  caption: z.string().max(1024).optional(),
  as: z.enum(['auto', 'photo', 'document', 'voice']).default('auto'),
});
export type SendFileInput = z.infer<typeof sendFileInput>;

/** `auto`: a photo when the bytes are an image, a document otherwise; an explicit kind must match the bytes. */
function sendAs(
  requested: SendFileInput['as'],
  mime: string,
  isImage: boolean,
): SendAs | 'not_image' | 'not_audio' {
  if (requested === 'auto') return isImage ? 'photo' : 'document';
  if (requested === 'photo' && !isImage) return 'not_image';
  if (requested === 'voice' && !mime.startsWith('audio/')) return 'not_audio';
  return requested;
}

export function createSendFileTool(): Tool<SendFileInput> {
  return {
    name: NAME,
    description:
      'Send a file from the workspace to the chat this conversation is in. It is delivered right after your answer.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path, relative to the workspace or absolute' },
        caption: { type: 'string', description: 'Optional text shown with the file' },
        as: {
          type: 'string',
          enum: ['auto', 'photo', 'document', 'voice'],
          description: 'How to show it; auto sends images as photos and anything else as a document',
        },
      },
      required: ['path'],
      additionalProperties: false,
    },
    input: sendFileInput,
    execute: guardedExecute(NAME, sendFileInput, async (input, { run }) => {
      const files = run.files;
      if (!files) return fail(text.noChat);
      const check = checkPath(run.policy, input.path, 'read');
      if (!check.ok) return fail(check.error);
      const info = await stat(check.path).catch(() => null);
      if (!info) return fail(paths.notFound(input.path));
      if (!info.isFile()) return fail(paths.notAFile(input.path));
      if (info.size === 0) return fail(text.empty(input.path));
      if (info.size > files.limitBytes) return fail(text.tooLarge(input.path, info.size, files.limitBytes));
      const bytes = await readFile(check.path);
      // Read again: the file may have grown between stat and read.
      if (bytes.byteLength > files.limitBytes)
        return fail(text.tooLarge(input.path, bytes.byteLength, files.limitBytes));
      const name = safeName(basename(check.path));
      const mime = mimeOf(name, bytes);
      const as = sendAs(input.as, mime, sniffImage(bytes) !== null);
      if (as === 'not_image') return fail(text.notImage(input.path));
      if (as === 'not_audio') return fail(text.notAudio(input.path));
      await files.queue({ name, bytes, mime, as, ...(input.caption ? { caption: input.caption } : {}) });
      return ok(text.queued(name, bytes.byteLength, as));
    }),
  };
}
