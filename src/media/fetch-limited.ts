// One HTTP download of an attachment, bounded: adapters whose platform gives a URL (Telegram's file path, Discord
// CDN, Slack url_private) fetch through here, so every platform stops at the same limit with the same reasons.

import { AttachmentFetchError } from './attachment.ts';
import { attachmentReasons } from './media-messages.ts';

export interface FetchLimitedOptions {
  headers?: Record<string, string>;
  maxBytes: number;
  signal: AbortSignal;
  /** Injected by tests and adapters that route through their own fetch; default: global fetch. */
  fetch?: typeof fetch;
}

/** The body, or AttachmentFetchError with a reason for the user line; nothing past `maxBytes` is ever held. */
export async function fetchLimited(url: string, opts: FetchLimitedOptions): Promise<Uint8Array> {
  let res: Response;
  try {
    res = await (opts.fetch ?? fetch)(url, { headers: opts.headers ?? {}, signal: opts.signal });
  } catch (err) {
    if (opts.signal.aborted) throw new AttachmentFetchError(attachmentReasons.timedOut);
    throw new AttachmentFetchError(attachmentReasons.unreachable(err));
  }
  if (res.status === 404 || res.status === 410) {
    await res.body?.cancel();
    throw new AttachmentFetchError(attachmentReasons.notFound);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new AttachmentFetchError(attachmentReasons.refused(res.status));
  }
  const declared = Number(res.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > opts.maxBytes) {
    await res.body?.cancel();
    throw new AttachmentFetchError(attachmentReasons.tooLarge(opts.maxBytes));
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of res.body ?? []) {
      total += chunk.byteLength;
      // A body longer than it said, or than the limit, stops here: nothing past the limit is held.
      if (total > opts.maxBytes) {
        await res.body?.cancel().catch(() => {});
        throw new AttachmentFetchError(attachmentReasons.tooLarge(opts.maxBytes));
      }
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof AttachmentFetchError) throw err;
    if (opts.signal.aborted) throw new AttachmentFetchError(attachmentReasons.timedOut);
    throw new AttachmentFetchError(attachmentReasons.unreachable(err));
  }
  return Buffer.concat(chunks, total);
}
