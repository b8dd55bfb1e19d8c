// The file a Telegram message carries (media.md §1), as a baton Attachment: kind, a made-up name where Telegram
// gives none, the claimed size and MIME type, and the file_id as `source` for getFile. A message carries at most
// one file (an album arrives as one message per file). Every field is untrusted; a file object without a usable
// file_id becomes a `failed` attachment, so its caption still makes a turn.
import { z } from 'zod';
import type { Attachment, AttachmentKind } from '../../src/media/attachment.ts';
import { attachmentReasons } from '../../src/media/media-messages.ts';

const fileSchema = z.looseObject({
  file_id: z.string().min(1).max(8192),
  file_unique_id: z.string().optional(),
  file_size: z.number().int().nonnegative().optional(),
  file_name: z.string().optional(),
  mime_type: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  is_animated: z.boolean().optional(),
  is_video: z.boolean().optional(),
});
type TgFile = z.infer<typeof fileSchema>;

interface FileKind {
  /** The message field. */
  field: string;
  kind: (f: TgFile) => AttachmentKind;
  /** The name when Telegram gives none (photos, voice notes and stickers never have one). */
  name: (id: string, f: TgFile) => string;
  /** Telegram's own format for the kind, when it states none. */
  mime?: (f: TgFile) => string | undefined;
}

const extOf = (mime: string | undefined, fallback: string) =>
  /^\w+\/([\w.+-]{1,10})$/.exec(mime ?? '')?.[1] ?? fallback;

/**
 * In the order looked for: an animation also comes with a `document` copy (older clients' view of it), so it is
 * looked for first; the first field present is the message's file.
 */
const KINDS: readonly FileKind[] = [
  { field: 'photo', kind: () => 'image', name: (id) => `photo-${id}.jpg`, mime: () => 'image/jpeg' },
  {
    field: 'animation',
    kind: () => 'animation',
    name: (id, f) => f.file_name ?? `animation-${id}.mp4`,
  },
  { field: 'document', kind: () => 'document', name: (id, f) => f.file_name ?? `document-${id}` },
  { field: 'video', kind: () => 'video', name: (id, f) => f.file_name ?? `video-${id}.mp4` },
  { field: 'video_note', kind: () => 'video', name: (id) => `video-note-${id}.mp4`, mime: () => 'video/mp4' },
  {
    field: 'audio',
    kind: () => 'audio',
    name: (id, f) => f.file_name ?? `audio-${id}.${extOf(f.mime_type, 'mp3')}`,
  },
  { field: 'voice', kind: () => 'voice', name: (id) => `voice-${id}.ogg`, mime: () => 'audio/ogg' },
  {
    // A static sticker is a WEBP image; animated (Lottie .tgs) and video (.webm) ones are not images.
    field: 'sticker',
    kind: (f) => (f.is_animated || f.is_video ? 'file' : 'image'),
    name: (id, f) => `sticker-${id}.${f.is_animated ? 'tgs' : f.is_video ? 'webm' : 'webp'}`,
    mime: (f) => (f.is_animated ? 'application/x-tgsticker' : f.is_video ? 'video/webm' : 'image/webp'),
  },
];

/** A name past this is cut (its end kept: the extension says what the file is); safe-name.ts cuts further. */
const NAME_MAX = 1000;
const clipName = (name: string) =>
  name.length <= NAME_MAX ? name : `${name.slice(0, NAME_MAX - 20)}${name.slice(-20)}`;

/** The largest of a photo's sizes (Telegram lists them smallest first; the area decides when it is given). */
function largestPhoto(sizes: unknown[]): unknown {
  let best: unknown;
  let bestArea = -1;
  for (const s of sizes) {
    const o = s as { width?: unknown; height?: unknown };
    const area = typeof o?.width === 'number' && typeof o.height === 'number' ? o.width * o.height : 0;
    if (area >= bestArea) [best, bestArea] = [s, area];
  }
  return best;
}

/** The message's file as an attachment, or none when it carries no file baton knows. */
export function attachmentsOf(message: Record<string, unknown>, messageId: number): Attachment[] {
  const spec = KINDS.find((k) => message[k.field] !== undefined && message[k.field] !== null);
  if (!spec) return [];
  const raw = message[spec.field];
  const parsed = fileSchema.safeParse(spec.field === 'photo' && Array.isArray(raw) ? largestPhoto(raw) : raw);
  if (!parsed.success) {
    return [{ kind: 'file', name: `${spec.field}-${messageId}`, failed: attachmentReasons.noReference }];
  }
  const f = parsed.data;
  // file_unique_id is stable and short; file_id is neither (it differs per bot and can be ~100 characters).
  const id =
    f.file_unique_id && /^[\w-]{1,64}$/.test(f.file_unique_id) ? f.file_unique_id : String(messageId);
  // A claimed type is only a hint: one too long to be real is dropped, not a reason to lose the file.
  const claimed = f.mime_type && f.mime_type.length <= 255 ? f.mime_type : undefined;
  const mime = claimed ?? spec.mime?.(f);
  return [
    {
      kind: spec.kind(f),
      name: clipName(spec.name(id, f)),
      ...(f.file_size !== undefined ? { size: f.file_size } : {}),
      ...(mime ? { mime } : {}),
      source: f.file_id,
    },
  ];
}
