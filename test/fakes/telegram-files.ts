// Files on the fake Telegram Bot API: files a test registers (as if a user had sent them), getFile with the Bot
// API's rules (unknown id: 400 "invalid file_id"; over 20 MB: 400 "file is too big"), the download URL
// `/file/bot<token>/<file_path>` (counted; can be made to fail or hang), and what sendPhoto / sendDocument /
// sendVoice uploaded (multipart, parsed from the raw bytes grammy sent).
import type { ServerResponse } from 'node:http';
import type { MultipartPart } from './multipart.ts';
import { apiError, type ErrorReply, type OkReply, ok } from './telegram-wire.ts';

/** The Bot API serves bots files up to 20 MB. */
export const FAKE_TELEGRAM_DOWNLOAD_LIMIT = 20 * 1024 * 1024;

export interface FakeTgFile {
  file_id: string;
  file_unique_id: string;
  /** The size getFile and the message report (the claimed size may differ from the bytes). */
  file_size: number;
  file_path: string;
  bytes: Buffer;
}

export interface AddFileOptions {
  bytes: Uint8Array | string;
  fileId?: string;
  uniqueId?: string;
  /** Default `documents/file_<n>`. */
  path?: string;
  /** What Telegram claims the size is (getFile's 20 MB rule uses it); default the bytes' length. */
  claimedSize?: number;
}

/**
 * How the next download of a path ('*' for any) fails: an HTTP status, held until the client gives up, or
 * served only once `until` resolves (a slow download the test controls).
 */
export type DownloadFailure = { status: number } | { hang: true } | { until: Promise<void> };

/** A file sent with sendPhoto / sendDocument / sendVoice. */
export interface Upload {
  method: string;
  /** The string fields as sent (numbers arrive as text in multipart). */
  fields: Record<string, string>;
  /** The field that named the file (`photo`, `document`, `voice`) and the part it pointed at. */
  field: string;
  filename: string | undefined;
  bytes: Buffer;
  caption: string | undefined;
  chatId: number;
  thread: number | undefined;
  /** The request body exactly as received, and its content type. */
  raw: Buffer;
  contentType: string;
}

export const UPLOAD_FIELDS: Record<string, string> = {
  sendPhoto: 'photo',
  sendDocument: 'document',
  sendVoice: 'voice',
};

export function createTelegramFiles() {
  const files = new Map<string, FakeTgFile>();
  const downloads = new Map<string, number>();
  const failures: { path: string; failure: DownloadFailure }[] = [];
  const hanging = new Set<ServerResponse>();
  const uploads: Upload[] = [];
  let next = 1;

  /** The file's bytes: 404 like Telegram for an unknown path or token (a closed request gets nothing). */
  function serveFile(tokenOk: boolean, path: string, res: ServerResponse): void {
    if (res.destroyed) return;
    const file = [...files.values()].find((f) => f.file_path === path);
    if (!tokenOk || !file) {
      res.writeHead(404, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify(apiError(404, 'Not Found')));
    }
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': file.bytes.byteLength,
    });
    res.end(file.bytes);
  }

  return {
    uploads,
    addFile(o: AddFileOptions): FakeTgFile {
      const n = next++;
      const bytes = Buffer.from(o.bytes);
      const file: FakeTgFile = {
        file_id: o.fileId ?? `BQACAgIAAxkBAAI${n}fake${'x'.repeat(40)}`,
        file_unique_id: o.uniqueId ?? `AgAD${n}`,
        file_size: o.claimedSize ?? bytes.byteLength,
        file_path: o.path ?? `documents/file_${n}`,
        bytes,
      };
      files.set(file.file_id, file);
      return file;
    },
    /** Downloads served or refused for a path (all paths when none is given). */
    downloads: (path?: string) =>
      path === undefined ? [...downloads.values()].reduce((a, b) => a + b, 0) : (downloads.get(path) ?? 0),
    failDownload(path: string, failure: DownloadFailure, times = 1) {
      for (let i = 0; i < times; i++) failures.push({ path, failure });
    },
    getFile(p: Record<string, unknown>): OkReply | ErrorReply {
      const file = files.get(String(p.file_id ?? ''));
      if (!file) return apiError(400, 'Bad Request: invalid file_id');
      if (file.file_size > FAKE_TELEGRAM_DOWNLOAD_LIMIT) return apiError(400, 'Bad Request: file is too big');
      const { bytes: _bytes, ...info } = file;
      return ok(info);
    },
    /** GET /file/bot<token>/<path>, counted; failed or held as failDownload asked. */
    serve(tokenOk: boolean, path: string, res: ServerResponse): void {
      downloads.set(path, (downloads.get(path) ?? 0) + 1);
      const at = failures.findIndex((f) => f.path === path || f.path === '*');
      const failure = at >= 0 ? failures.splice(at, 1)[0]?.failure : undefined;
      if (failure && ('hang' in failure || 'until' in failure)) {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        if ('until' in failure) void failure.until.then(() => serveFile(tokenOk, path, res));
        return;
      }
      if (failure) return void res.writeHead(failure.status, { 'content-type': 'text/plain' }).end('refused');
      serveFile(tokenOk, path, res);
    },
    /** A multipart upload: the file part the method's field points at (`attach://<part>`), recorded. */
    upload(
      method: string,
      parts: MultipartPart[],
      raw: Buffer,
      contentType: string,
    ): { upload: Upload } | { error: ErrorReply } {
      const field = UPLOAD_FIELDS[method] as string;
      const fields: Record<string, string> = {};
      for (const part of parts)
        if (part.filename === undefined) fields[part.name] = part.data.toString('utf8');
      const ref = fields[field] ?? '';
      const attached = ref.startsWith('attach://')
        ? parts.find((part) => part.name === ref.slice('attach://'.length) && part.filename !== undefined)
        : undefined;
      if (!attached) return { error: apiError(400, `Bad Request: there is no ${field} in the request`) };
      const chatId = Number(fields.chat_id);
      if (!Number.isSafeInteger(chatId) || chatId === 0)
        return { error: apiError(400, 'Bad Request: chat not found') };
      if ((fields.caption?.length ?? 0) > 1024)
        return { error: apiError(400, 'Bad Request: message caption is too long') };
      const upload: Upload = {
        method,
        fields,
        field,
        filename: attached.filename,
        bytes: attached.data,
        caption: fields.caption,
        chatId,
        thread: fields.message_thread_id ? Number(fields.message_thread_id) : undefined,
        raw,
        contentType,
      };
      uploads.push(upload);
      return { upload };
    },
    /** Releases held downloads (close: a hung response must not keep the server open). */
    close() {
      for (const res of hanging) res.destroy();
      hanging.clear();
    },
  };
}

export type TelegramFiles = ReturnType<typeof createTelegramFiles>;

/**
 * The message fields for a user sending `file` (for injectMessage's `extra`): a photo as its sizes (a thumbnail
 * and the file itself, largest last, as Telegram lists them), anything else as one object; caption with its
 * mention entities.
 */
export function fileMessage(
  field: 'photo' | 'document' | 'voice' | 'audio' | 'video' | 'animation' | 'sticker',
  file: FakeTgFile,
  o: { caption?: string; fileName?: string; mime?: string; extra?: Record<string, unknown> } = {},
): Record<string, unknown> {
  const ref = { file_id: file.file_id, file_unique_id: file.file_unique_id, file_size: file.file_size };
  const caption = o.caption
    ? {
        caption: o.caption,
        caption_entities: [...o.caption.matchAll(/@\w+/g)].map((m) => ({
          type: 'mention',
          offset: m.index,
          length: m[0].length,
        })),
      }
    : {};
  const body =
    field === 'photo'
      ? [
          {
            file_id: `${file.file_id}-thumb`,
            file_unique_id: `${file.file_unique_id}-t`,
            file_size: 900,
            width: 90,
            height: 60,
          },
          { ...ref, width: 1280, height: 853 },
        ]
      : {
          ...ref,
          ...(o.fileName !== undefined ? { file_name: o.fileName } : {}),
          ...(o.mime !== undefined ? { mime_type: o.mime } : {}),
          ...(field === 'voice' ? { duration: 3, mime_type: o.mime ?? 'audio/ogg' } : {}),
          ...o.extra,
        };
  return { [field]: body, ...caption };
}
