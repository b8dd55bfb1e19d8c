// A queued message's files as its turn's user message (media.md §1): each stored attachment is written into the
// agent's workspace inbox, then described by its exact line; an image also travels as an image part (the provider
// chain drops it for a model without vision), a voice note or audio gets its transcript when configured.
import type { Redis } from 'ioredis';
import { agentOf } from '../config/lookup.ts';
import type { BatonConfig } from '../config/types.ts';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import type { Attachment } from '../media/attachment.ts';
import { createBlobStore } from '../media/blob-store.ts';
import { writeInboxFile } from '../media/inbox-files.ts';
import {
  attachmentFailedLine,
  attachmentReasons,
  attachmentSavedLine,
  formatSize,
  voiceTranscriptLine,
} from '../media/media-messages.ts';
import { inboxRelativePath, safeName } from '../media/safe-name.ts';
import { sniffImage } from '../media/sniff.ts';
import { createTranscriber, type Transcriber, TranscriptionError } from '../providers/index.ts';
import type { ImageInput } from '../providers/types.ts';

/** The user message of a turn: its text (stored in history) and the images sent with it (never stored). */
export interface TurnInput {
  text: string;
  images: ImageInput[];
}

export interface TurnMessageSource {
  agent: string;
  eventId: string;
  text: string;
  attachments?: Attachment[] | undefined;
}

export interface TurnAttachments {
  /** `config`: the turn's own snapshot (a reload reaches the next turn). */
  userMessage(
    event: TurnMessageSource,
    conversation: string,
    config: BatonConfig,
    signal: AbortSignal,
  ): Promise<TurnInput>;
}

export interface TurnAttachmentsOptions {
  redis: Redis;
  /** Where the transcription provider's key comes from, as for model providers. */
  env: Record<string, string | undefined>;
  logger: Logger;
  fetch?: typeof fetch;
  /** One transcription's time limit. */
  transcriptionTimeoutMs?: number;
}

const DEFAULT_TRANSCRIPTION_TIMEOUT_MS = 120_000;
const AUDIO_KINDS: ReadonlySet<string> = new Set(['voice', 'audio']);

export function createTurnAttachments(opts: TurnAttachmentsOptions): TurnAttachments {
  const blobs = createBlobStore(opts.redis);
  const logger = opts.logger.child({ component: 'media' });
  // Built per config: a reload that changes [transcription] or the provider's key takes effect at the next turn.
  let transcriberFor: { config: BatonConfig; transcriber: Transcriber | null } | null = null;
  const transcriberOf = (config: BatonConfig): Transcriber | null => {
    if (transcriberFor?.config !== config)
      transcriberFor = { config, transcriber: createTranscriber(config, opts.env, opts.fetch) };
    return transcriberFor.transcriber;
  };

  async function transcript(t: Transcriber, bytes: Uint8Array, signal: AbortSignal, where: object) {
    const limit = AbortSignal.timeout(opts.transcriptionTimeoutMs ?? DEFAULT_TRANSCRIPTION_TIMEOUT_MS);
    try {
      return await t.transcribe(bytes, AbortSignal.any([signal, limit]));
    } catch (err) {
      if (signal.aborted) throw err;
      // The operator's log only: the model keeps the saved-as line and can still read the file.
      const status = err instanceof TranscriptionError ? err.status : undefined;
      logger.warn({ ...where, status, err: errorMessage(err) }, 'voice note not transcribed');
      return null;
    }
  }

  return {
    async userMessage(event, conversation, config, signal) {
      const list = event.attachments ?? [];
      if (list.length === 0) return { text: event.text, images: [] };
      const workspace = agentOf(config, event.agent)?.workspace.path;
      const transcriber = transcriberOf(config);
      const lines: string[] = [];
      const images: ImageInput[] = [];
      const used = new Set<string>();
      for (const [i, a] of list.entries()) {
        const name = safeName(a.name);
        const failed = (reason: string) =>
          lines.push(attachmentFailedLine(a.kind, name, formatSize(a.size), reason));
        if (a.failed || !a.blob || !workspace) {
          failed(a.failed ?? attachmentReasons.unsupported);
          continue;
        }
        // Two files of one message with the same name (Discord allows it) get the position in their path.
        let rel = inboxRelativePath(conversation, event.eventId, a.name);
        if (used.has(rel)) rel = inboxRelativePath(conversation, `${event.eventId}-${i + 1}`, a.name);
        used.add(rel);
        const where = { event_id: event.eventId, index: i, kind: a.kind, path: rel };
        const blob = a.blob;
        const audio = transcriber !== null && AUDIO_KINDS.has(a.kind);
        let file: Awaited<ReturnType<typeof writeInboxFile>>;
        try {
          file = await writeInboxFile(
            workspace,
            rel,
            a.size,
            () => blobs.get(blob),
            a.kind === 'image' || audio,
          );
        } catch (err) {
          logger.warn({ ...where, err: errorMessage(err) }, 'attachment not saved');
          failed(attachmentReasons.notSaved);
          continue;
        }
        if (file === null) {
          failed(attachmentReasons.expired);
          continue;
        }
        const mediaType = a.kind === 'image' && file.bytes ? sniffImage(file.bytes) : null;
        if (mediaType && file.bytes) images.push({ mediaType, data: file.bytes });
        if (audio && transcriber && file.bytes) {
          const text = await transcript(transcriber, file.bytes, signal, where);
          if (text !== null) lines.push(voiceTranscriptLine(text));
        }
        lines.push(attachmentSavedLine(a.kind, name, formatSize(file.size), rel));
      }
      return { text: [event.text, ...lines].filter((l) => l !== '').join('\n'), images };
    },
  };
}
