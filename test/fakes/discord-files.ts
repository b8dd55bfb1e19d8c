// Files on the fake Discord: a CDN serving attachments at Discord-like URLs (bytes registered per test, downloads
// counted, 403/404/hang on demand), and the multipart body discord.js sends with files (payload_json + files[n]).
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What an injected message's attachment is: its claimed fields and what the CDN does when it is fetched. */
export interface InjectAttachment {
  filename: string;
  content_type?: string;
  /** The bytes served; absent (and no `status`/`hang`): the CDN answers 404. */
  bytes?: Uint8Array;
  /** The size the message claims (default: the bytes' length, else 1024). */
  size?: number;
  /** The CDN answers this instead of the bytes. */
  status?: 403 | 404;
  /** The CDN never answers (until the client gives up or the fake closes). */
  hang?: boolean;
  /** The CDN answers 302 to this location. */
  redirect?: string;
  /** A URL to put in the message instead of the fake CDN's (nothing is registered). */
  url?: string;
  /** A voice message's audio: the attachment gets `duration_secs` and `waveform`, the message the voice flag. */
  voice?: boolean;
}

export interface WireAttachment {
  id: string;
  filename: string;
  content_type?: string;
  size: number;
  url: string;
  proxy_url: string;
  duration_secs?: number;
  waveform?: string;
}

/** A file of a multipart message upload, as the fake received it. */
export interface UploadedFile {
  field: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

interface Served {
  bytes?: Uint8Array;
  status?: number;
  hang?: boolean;
  redirect?: string;
}

export const CDN_PREFIX = '/attachments/';

export class FakeDiscordCdn {
  private readonly files = new Map<string, Served>();
  /** Every attachment request, in order: its path (no query) and any Authorization header it carried. */
  readonly fetches: Array<{ path: string; authorization?: string }> = [];
  private readonly held = new Set<ServerResponse>();

  private readonly origin: () => string;

  constructor(origin: () => string) {
    this.origin = origin;
  }

  /** Registers an attachment of a message in `channelId`; returns its wire form (URL on this CDN unless given). */
  attach(channelId: string, id: string, a: InjectAttachment): WireAttachment {
    const path = `${CDN_PREFIX}${channelId}/${id}/${encodeURIComponent(a.filename)}`;
    if (!a.url) {
      const status = a.status ?? (a.bytes || a.hang || a.redirect ? undefined : 404);
      this.files.set(path, {
        ...(a.bytes ? { bytes: a.bytes } : {}),
        ...(status ? { status } : {}),
        ...(a.hang ? { hang: true } : {}),
        ...(a.redirect ? { redirect: a.redirect } : {}),
      });
    }
    // Signed like Discord's (expiry, issued, hash): the query is part of the URL, not of what is served.
    const url = a.url ?? `${this.origin()}${path}?ex=6a000000&is=69f00000&hm=${id}`;
    return {
      id,
      filename: a.filename,
      ...(a.content_type !== undefined ? { content_type: a.content_type } : {}),
      size: a.size ?? a.bytes?.byteLength ?? 1024,
      url,
      proxy_url: url,
      ...(a.voice ? { duration_secs: 2.5, waveform: 'AAAA' } : {}),
    };
  }

  /** How many times this attachment URL (query ignored) was fetched, answered or not. */
  downloads(url: string): number {
    const path = new URL(url).pathname;
    return this.fetches.filter((f) => f.path === path).length;
  }

  /** Answers a CDN request (no Authorization needed, none expected); false when the path is not the CDN's. */
  handle(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    if (!path.startsWith(CDN_PREFIX)) return false;
    const { authorization } = req.headers;
    this.fetches.push({ path, ...(authorization ? { authorization } : {}) });
    const served = req.method === 'GET' ? this.files.get(path) : undefined;
    if (served?.hang) {
      this.held.add(res);
      res.on('close', () => this.held.delete(res));
      return true;
    }
    if (served?.redirect) {
      res.writeHead(302, { location: served.redirect });
      res.end();
      return true;
    }
    if (!served?.bytes || served.status) {
      res.writeHead(served?.status ?? 404, { 'content-type': 'text/plain' });
      res.end(served?.status === 403 ? 'Forbidden' : 'This content is no longer available.');
      return true;
    }
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': String(served.bytes.byteLength),
    });
    res.end(Buffer.from(served.bytes));
    return true;
  }

  close(): void {
    for (const res of this.held) res.destroy();
    this.held.clear();
  }
}

/** A REST request's body: JSON, or multipart (payload_json + files[n]) when discord.js uploads; else raw text. */
export async function readRequestBody(
  raw: Buffer,
  contentType: string,
): Promise<{ body: unknown; files?: UploadedFile[] }> {
  try {
    if (contentType.startsWith('multipart/form-data')) return await parseMultipart(raw, contentType);
    return { body: raw.length ? JSON.parse(raw.toString('utf8')) : undefined };
  } catch {
    return { body: raw.toString('utf8') };
  }
}

/** The JSON payload and files of a multipart/form-data body (parsed by undici, as a server would). */
async function parseMultipart(
  raw: Buffer,
  contentType: string,
): Promise<{ body: unknown; files: UploadedFile[] }> {
  const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  const files: UploadedFile[] = [];
  let body: unknown;
  for (const [field, value] of form.entries()) {
    if (field === 'payload_json' && typeof value === 'string') body = JSON.parse(value);
    else if (typeof value !== 'string') {
      files.push({
        field,
        filename: value.name,
        contentType: value.type,
        bytes: Buffer.from(await value.arrayBuffer()),
      });
    }
  }
  return { body, files };
}
