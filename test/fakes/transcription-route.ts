// The fake model API's `POST <prefix>/audio/transcriptions` (OpenAI-compatible, multipart): records what was sent
// and answers from a script of transcripts or HTTP errors.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface RecordedTranscription {
  path: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The multipart `model` field. */
  model: string;
  /** The multipart `file` part. */
  file: { name: string; type: string; bytes: Buffer };
}

/** One answer: a transcript, or an HTTP error with the API's error envelope. */
export type ScriptedTranscript = { text: string } | { status: number; message?: string };

export interface TranscriptionRoute {
  readonly transcriptions: RecordedTranscription[];
  scriptTranscripts(items: ScriptedTranscript[]): void;
  handle(req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void>;
  reset(): void;
}

export function createTranscriptionRoute(): TranscriptionRoute {
  const transcriptions: RecordedTranscription[] = [];
  const queue: ScriptedTranscript[] = [];
  const json = (res: ServerResponse, status: number, value: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };
  return {
    transcriptions,
    scriptTranscripts(items) {
      queue.push(...items);
    },
    async handle(req, body, res) {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      // The platform's own multipart parser (undici), as a real server would parse it.
      const form = await new Request('http://fake/', {
        method: 'POST',
        headers: { 'content-type': headers['content-type'] ?? '' },
        body,
      }).formData();
      const file = form.get('file');
      if (!(file instanceof File)) return json(res, 400, { error: { message: 'no file part' } });
      transcriptions.push({
        path: (req.url ?? '/').split('?')[0] ?? '/',
        headers,
        model: String(form.get('model') ?? ''),
        file: { name: file.name, type: file.type, bytes: Buffer.from(await file.arrayBuffer()) },
      });
      const next = queue.shift() ?? { status: 500, message: 'fake model server: no scripted transcript' };
      if ('status' in next)
        return json(res, next.status, { error: { message: next.message ?? 'transcription failed' } });
      json(res, 200, { text: next.text });
    },
    reset() {
      transcriptions.length = 0;
      queue.length = 0;
    },
  };
}
