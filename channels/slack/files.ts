// Slack file objects (a message's `files`) → baton attachments. Everything here comes from the event: untrusted,
// possibly malformed; a file that cannot be fetched is reported (`failed`) rather than dropped.
import { z } from 'zod';
import type { Attachment, AttachmentKind } from '../../src/media/attachment.ts';
import { attachmentReasons } from '../../src/media/media-messages.ts';

/** The attachment schema's bounds: a longer name is cut, more files than this are not reported at all. */
const NAME_MAX = 10_000;
const SOURCE_MAX = 8192;
const MIME_MAX = 255;
const FILES_MAX = 50;

/** `source` of a file whose event carried no URL (`file_access: check_file_info`): files.info has it. */
export const FILE_INFO_SOURCE = 'slack-file:';

const fileSchema = z.object({
  id: z.string().min(1).max(100).optional(),
  name: z.string().nullish(),
  title: z.string().nullish(),
  mimetype: z.string().nullish(),
  filetype: z.string().nullish(),
  size: z.number().nullish(),
  mode: z.string().nullish(),
  subtype: z.string().nullish(),
  file_access: z.string().nullish(),
  is_external: z.boolean().nullish(),
  url_private: z.string().nullish(),
  url_private_download: z.string().nullish(),
});
type SlackFile = z.infer<typeof fileSchema>;

const IMAGE_TYPES = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'heic', 'tiff']);
const AUDIO_TYPES = new Set(['mp3', 'm4a', 'ogg', 'wav', 'flac', 'aac', 'opus']);
const VIDEO_TYPES = new Set(['mp4', 'mov', 'webm', 'mkv', 'avi', 'mpg']);
const DOCUMENT_TYPES = new Set([
  'pdf',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'odt',
  'ods',
  'odp',
  'rtf',
  'text',
  'txt',
  'csv',
  'markdown',
  'md',
  'gdoc',
  'gsheet',
  'gpres',
]);
const DOCUMENT_MIME =
  /^(application\/(pdf|rtf|msword|vnd\.ms-|vnd\.openxmlformats-officedocument\.|vnd\.oasis\.opendocument\.)|text\/)/;

/** Slack's own voice and video clips have subtypes; otherwise the claimed type (a hint) and Slack's filetype. */
export function slackFileKind(f: Pick<SlackFile, 'subtype' | 'mimetype' | 'filetype'>): AttachmentKind {
  if (f.subtype === 'slack_audio') return 'voice';
  if (f.subtype === 'slack_video') return 'video';
  const mime = (f.mimetype ?? '').toLowerCase();
  const type = (f.filetype ?? '').toLowerCase();
  if (mime.startsWith('image/') || (!mime && IMAGE_TYPES.has(type))) return 'image';
  if (mime.startsWith('audio/') || (!mime && AUDIO_TYPES.has(type))) return 'audio';
  if (mime.startsWith('video/') || (!mime && VIDEO_TYPES.has(type))) return 'video';
  if (DOCUMENT_MIME.test(mime) || DOCUMENT_TYPES.has(type)) return 'document';
  return 'file';
}

function fileAttachment(raw: unknown, index: number): Attachment {
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) return { kind: 'file', name: `file-${index + 1}`, failed: attachmentReasons.notFound };
  const f = parsed.data;
  const name = [...(f.name || f.title || `file-${f.id ?? index + 1}`)].slice(0, NAME_MAX).join('');
  const size = typeof f.size === 'number' && Number.isSafeInteger(f.size) && f.size >= 0 ? f.size : undefined;
  const mime = f.mimetype && f.mimetype.length <= MIME_MAX ? f.mimetype : undefined;
  const base: Attachment = {
    kind: slackFileKind(f),
    name,
    ...(size !== undefined ? { size } : {}),
    ...(mime ? { mime } : {}),
  };
  // Deleted, hidden by the free plan's limit, or a link to another service (Google Drive…): nothing to fetch here.
  if (f.mode === 'tombstone' || f.mode === 'hidden_by_limit')
    return { ...base, failed: attachmentReasons.notFound };
  if (f.is_external || f.mode === 'external') return { ...base, failed: attachmentReasons.notOnPlatform };
  const url = f.url_private_download || f.url_private;
  if (url && url.length <= SOURCE_MAX) return { ...base, source: url };
  // No URL in the event (Slack Connect), or one too long to carry (it holds the name): files.info has it.
  if (f.id && (url || f.file_access === 'check_file_info')) {
    return { ...base, source: `${FILE_INFO_SOURCE}${f.id}` };
  }
  return { ...base, failed: attachmentReasons.notFound };
}

/** The message's files as attachments (the host fetches each through the adapter's `download`). */
export function slackAttachments(files: readonly unknown[] | undefined): Attachment[] {
  return (files ?? []).slice(0, FILES_MAX).map(fileAttachment);
}
