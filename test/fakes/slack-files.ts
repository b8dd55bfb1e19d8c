// Files on the fake Slack: url_private downloads (bot bearer required, like Slack: a wrong token gets the sign-in
// page with a 200), and the external upload flow (files.getUploadURLExternal → POST bytes → completeUploadExternal).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FAKE_TEAM, nextTs } from './slack-payloads.ts';

/** How the file host answers a download: the bytes, an HTTP error, Slack's login page, a redirect, or never. */
export type FileBehaviour = 'ok' | 'login' | 'hang' | { status: number } | { redirect: string };

export interface HostedFileInput {
  name: string;
  bytes: Uint8Array | string;
  mimetype?: string;
  filetype?: string;
  /** What the event claims (default: the real length). */
  size?: number;
  behaviour?: FileBehaviour;
  /** Extra fields of the file object (subtype, mode…) or overrides (url_private_download…). */
  extra?: Record<string, unknown>;
}

export interface FileDownload {
  id: string;
  authorization: string | undefined;
  at: number;
}

export interface FileUpload {
  file_id: string;
  filename: string;
  length: number;
  bytes: Buffer;
  /** Set by completeUploadExternal. */
  completed?: { channel: string; thread_ts?: string; initial_comment?: string; title?: string; ts: string };
}

export const LOGIN_PAGE = '<!DOCTYPE html><html><head><title>Slack</title></head><body>Sign in</body></html>';

interface Hosted {
  id: string;
  bytes: Buffer;
  mimetype: string;
  behaviour: FileBehaviour;
  object: Record<string, unknown>;
}

export class FakeSlackFiles {
  /** The token a download must bear. */
  botToken = 'xoxb-test';
  readonly downloads: FileDownload[] = [];
  readonly uploads: FileUpload[] = [];
  private readonly hosted = new Map<string, Hosted>();
  private readonly held = new Set<ServerResponse>();
  private readonly gates = new Map<string, Array<() => void>>();
  private counter = 0;

  private readonly base: () => string;
  private readonly changed: () => void;

  /** `base`: the server's root URL (ends in `/`); `changed`: wakes the server's waiters. */
  constructor(base: () => string, changed: () => void) {
    this.base = base;
    this.changed = changed;
  }

  /** A file Slack stores; returns the file object a message event carries. */
  host(input: HostedFileInput): Record<string, unknown> {
    const id = `F${String(++this.counter).padStart(6, '0')}${Date.now() % 100_000}`;
    const bytes = Buffer.from(input.bytes);
    const mimetype = input.mimetype ?? 'application/octet-stream';
    const path = `${this.base()}files-pri/${FAKE_TEAM}-${id}`;
    const object: Record<string, unknown> = {
      id,
      created: Math.floor(Date.now() / 1000),
      name: input.name,
      title: input.name,
      mimetype,
      filetype: input.filetype ?? 'binary',
      user: 'U0ALICE',
      mode: 'hosted',
      size: input.size ?? bytes.byteLength,
      url_private: `${path}/${encodeURIComponent(input.name)}`,
      url_private_download: `${path}/download/${encodeURIComponent(input.name)}`,
      file_access: 'visible',
      ...input.extra,
    };
    this.hosted.set(id, { id, bytes, mimetype, behaviour: input.behaviour ?? 'ok', object });
    return object;
  }

  /** Holds downloads of `id` until the returned function is called (a slow file host). */
  gate(id: string): () => void {
    this.gates.set(id, []);
    return () => {
      const waiting = this.gates.get(id) ?? [];
      this.gates.delete(id);
      for (const go of waiting) go();
    };
  }

  downloadsOf(id: string): FileDownload[] {
    return this.downloads.filter((d) => d.id === id);
  }

  /** Serves `/files-pri/…` and `/upload/…`; false for any other path (the Web API's). */
  serve(req: IncomingMessage, res: ServerResponse, body: Buffer): boolean {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path.startsWith('/files-pri/')) {
      void this.download(path, req, res);
      return true;
    }
    if (path.startsWith('/upload/v1/')) {
      void this.receive(path.slice('/upload/v1/'.length), req, res, body);
      return true;
    }
    return false;
  }

  /** The Web API methods of files; undefined for any other method. */
  answer(method: string, params: Record<string, unknown>): unknown {
    switch (method) {
      case 'files.getUploadURLExternal': {
        const length = Number(params.length);
        if (typeof params.filename !== 'string' || !params.filename || !Number.isInteger(length)) {
          return { ok: false, error: 'invalid_arguments' };
        }
        const file_id = `F${String(++this.counter).padStart(6, '0')}UP`;
        this.uploads.push({ file_id, filename: params.filename, length, bytes: Buffer.alloc(0) });
        return { ok: true, upload_url: `${this.base()}upload/v1/${file_id}`, file_id };
      }
      case 'files.completeUploadExternal':
        return this.complete(params);
      case 'files.info': {
        const file = this.hosted.get(String(params.file));
        return file ? { ok: true, file: file.object } : { ok: false, error: 'file_not_found' };
      }
      default:
        return undefined;
    }
  }

  close(): void {
    for (const res of this.held) res.destroy();
    this.held.clear();
  }

  private async download(path: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const id = path.split('/')[2]?.slice(FAKE_TEAM.length + 1) ?? '';
    const file = this.hosted.get(id);
    this.downloads.push({ id, authorization: req.headers.authorization, at: Date.now() });
    this.changed();
    const gate = this.gates.get(id);
    if (gate) await new Promise<void>((resolve) => gate.push(resolve));
    const login = () => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(LOGIN_PAGE);
    };
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    } else if (req.headers.authorization !== `Bearer ${this.botToken}` || file.behaviour === 'login') {
      login();
    } else if (file.behaviour === 'hang') {
      this.held.add(res);
      res.writeHead(200, { 'content-type': file.mimetype });
      res.flushHeaders();
    } else if (typeof file.behaviour === 'object' && 'redirect' in file.behaviour) {
      res.writeHead(302, { location: file.behaviour.redirect });
      res.end();
    } else if (typeof file.behaviour === 'object') {
      res.writeHead(file.behaviour.status, { 'content-type': 'text/plain' });
      res.end('refused');
    } else {
      res.writeHead(200, { 'content-type': file.mimetype, 'content-length': String(file.bytes.byteLength) });
      res.end(file.bytes);
    }
  }

  /** The upload URL takes the bytes raw or as multipart form data (the SDK sends a form with one file). */
  private async receive(id: string, req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    const upload = this.uploads.find((u) => u.file_id === id);
    if (!upload) {
      res.writeHead(404).end();
      return;
    }
    const type = String(req.headers['content-type'] ?? '');
    if (type.startsWith('multipart/form-data')) {
      const form = await new Response(body, { headers: { 'content-type': type } }).formData();
      const file = [...form.values()].find((v): v is File => typeof v !== 'string');
      upload.bytes = file ? Buffer.from(await file.arrayBuffer()) : Buffer.alloc(0);
    } else {
      upload.bytes = body;
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`OK - ${upload.bytes.byteLength}`);
    this.changed();
  }

  private complete(params: Record<string, unknown>): unknown {
    const files = Array.isArray(params.files) ? (params.files as Array<{ id?: string; title?: string }>) : [];
    const channel = typeof params.channel_id === 'string' ? params.channel_id : '';
    if (files.length === 0) return { ok: false, error: 'invalid_arguments' };
    const ups = files.map((f) => this.uploads.find((u) => u.file_id === f.id && u.bytes.byteLength > 0));
    if (ups.some((u) => !u || u.completed)) return { ok: false, error: 'file_not_found' };
    const ts = nextTs();
    const thread = typeof params.thread_ts === 'string' && params.thread_ts ? params.thread_ts : undefined;
    const comment = typeof params.initial_comment === 'string' ? params.initial_comment : undefined;
    const answered = ups.map((u, i) => {
      const up = u!;
      const title = files[i]?.title;
      up.completed = {
        channel,
        ts,
        ...(thread ? { thread_ts: thread } : {}),
        ...(comment !== undefined ? { initial_comment: comment } : {}),
        ...(title ? { title } : {}),
      };
      const scope = channel.startsWith('C') ? 'public' : 'private';
      return {
        id: up.file_id,
        title: title ?? up.filename,
        shares: channel ? { [scope]: { [channel]: [{ ts }] } } : {},
      };
    });
    return { ok: true, files: answered };
  }
}
