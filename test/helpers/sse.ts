// Reads a text/event-stream response frame by frame (fetch body), for tests of SSE endpoints.

export interface SseFrame {
  id?: string;
  data: string;
}

export interface SseReader {
  frames: SseFrame[];
  /** Resolves once `check` holds for the frames read so far (rejects after `timeoutMs`). */
  until(check: (frames: SseFrame[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

export function readSse(res: Response): SseReader {
  const frames: SseFrame[] = [];
  const waiters = new Set<() => void>();
  const controller = new AbortController();
  const body = res.body;
  if (!body) throw new Error('no body');
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done || controller.signal.aborted) return;
        buf += value;
        let end = buf.indexOf('\n\n');
        while (end >= 0) {
          const raw = buf.slice(0, end);
          buf = buf.slice(end + 2);
          const frame: SseFrame = { data: '' };
          for (const line of raw.split('\n')) {
            if (line.startsWith('id: ')) frame.id = line.slice(4);
            else if (line.startsWith('data: ')) frame.data += line.slice(6);
          }
          if (frame.data) frames.push(frame);
          end = buf.indexOf('\n\n');
        }
        for (const w of waiters) w();
      }
    } catch {
      // closed
    }
  })();
  return {
    frames,
    until(check, timeoutMs = 15_000) {
      if (check(frames)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(w);
          reject(new Error(`SSE condition not met; frames: ${JSON.stringify(frames).slice(0, 2000)}`));
        }, timeoutMs);
        const w = () => {
          if (!check(frames)) return;
          clearTimeout(timer);
          waiters.delete(w);
          resolve();
        };
        waiters.add(w);
      });
    },
    close() {
      controller.abort();
      void reader.cancel().catch(() => {});
    },
  };
}
