// Every model-visible and user-visible string of attachments (media.md): the lines a turn's user message gets
// for its files, the reasons a file was not downloaded, and send_file's results and refusals.

/** `12 B`, `3.4 KB`, `20.0 MB`: binary units, one decimal above bytes. */
export function formatSize(bytes: number | undefined): string {
  if (bytes === undefined) return 'size unknown';
  if (bytes < 1024) return `${bytes} B`;
  // The unit is chosen on the rounded value, so 1,048,575 bytes reads `1.0 MB`, never `1024.0 KB`.
  const units = ['KB', 'MB', 'GB'] as const;
  let value = bytes / 1024;
  let unit = 0;
  while (unit < units.length - 1 && Number(value.toFixed(1)) >= 1024) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** A limit in bytes as the config states it (`max_attachment_mb`, MiB): `20 MB`, `0.5 MB`. */
export function formatLimit(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : Number(mb.toFixed(2))} MB`;
}

/** media.md §1: a file stored where the agent's file tools can read it. */
export const attachmentSavedLine = (kind: string, name: string, size: string, path: string) =>
  `[attachment: ${kind} ${name}, ${size}, saved as ${path}]`;

/** media.md §1: a file over the limit or that could not be fetched; the turn still runs. */
export const attachmentFailedLine = (kind: string, name: string, size: string, reason: string) =>
  `[attachment: ${kind} ${name}, ${size}, not downloaded: ${reason}]`;

/** media.md §1: a voice note or audio's transcript, before its saved-as line. */
export const voiceTranscriptLine = (text: string) => `[voice transcript] ${text}`;

/** Why an attachment was not downloaded: the end of its `not downloaded: …` line. */
export const attachmentReasons = {
  tooLarge: (limitBytes: number) => `larger than the ${formatLimit(limitBytes)} limit`,
  empty: 'the file is empty',
  notFound: 'the platform no longer has this file',
  refused: (status: number) => `the platform refused the download (HTTP ${status})`,
  unreachable: (_err: unknown) => 'the platform could not be reached',
  timedOut: 'the download timed out',
  tooMany: (max: number) => `more than ${max} files in one message`,
  /** The gateway has no way to fetch this channel's files (an adapter without downloads). */
  unsupported: 'this channel cannot download files',
  /** A link to a file kept elsewhere (Slack's Google Drive files) or a URL off the platform's file hosts. */
  notOnPlatform: 'the file is not stored on the platform',
  /** Slack answers a refused token with its login page (HTTP 200, HTML) instead of an error. */
  loginPage: 'the platform answered with a login page instead of the file',
  /** The worker could not write it into the agent's workspace (a full disk, a folder that is a link). */
  notSaved: 'it could not be saved in the workspace',
  /** The stored copy expired before the turn ran (media/blob-store.ts TTL). */
  expired: 'the stored copy expired before the turn ran',
  /** Over what the platform serves to bots at all (Telegram's Bot API: 20 MB), whatever `max_attachment_mb` says. */
  platformLimit: (platform: string, limitBytes: number) =>
    `larger than ${platform} lets bots download (${formatLimit(limitBytes)})`,
  /** The platform described a file without a usable reference to fetch it by. */
  noReference: 'the platform gave no reference to download it by',
} as const;

/** Shown in the chat in place of a file send_file queued that could not be sent (nothing is lost silently). */
export const fileNotSentNotice = (name: string, reason: string) => `⚠️ ${name} could not be sent: ${reason}`;

export const fileNotSentReasons = {
  expired: 'its stored copy expired',
  tooLarge: (size: number, limitBytes: number) =>
    `it is ${formatSize(size)}, over this chat's ${formatLimit(limitBytes)} limit`,
  unsupported: 'this channel cannot send files',
  refused: 'the platform refused it',
} as const;

/** send_file's results and refusals (media.md §2): what the model learns of what was sent. */
export const sendFileTexts = {
  queued: (name: string, size: number, as: string) =>
    `Queued ${name} (${formatSize(size)}) as a ${as} for this chat: it is sent right after your answer.`,
  noChat: 'send_file: this run has no chat to send to (no originating chat and no delivery chat).',
  empty: (path: string) => `send_file: ${path} is empty; nothing was sent.`,
  tooLarge: (path: string, size: number, limitBytes: number) =>
    `send_file: ${path} is ${formatSize(size)}, over this chat's limit of ${formatLimit(limitBytes)}; nothing was sent.`,
  notImage: (path: string) =>
    `send_file: ${path} is not a PNG, JPEG, GIF or WebP image, so it cannot be sent as a photo; send it as a document.`,
  notAudio: (path: string) =>
    `send_file: ${path} is not an audio file, so it cannot be sent as a voice note.`,
} as const;
