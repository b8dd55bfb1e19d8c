// The media demo's model, a fake with vision: it reads the screenshot it is shown (a PNG's size, from its
// header), writes a short report with file_write, sends it back with send_file, and answers.
import { lastUserPartsOf, toolResultsOf } from '../fakes/model-requests.ts';
import type { RecordedRequest, ScriptedTurn } from '../fakes/model-server.ts';

export const REPORT_PATH = 'reports/checkout-error.md';

/** Width × height from a PNG's IHDR chunk (bytes 16–23), or null for anything else. */
function pngSize(bytes: Buffer): string | null {
  if (bytes.length < 24 || bytes.toString('ascii', 12, 16) !== 'IHDR') return null;
  return `${bytes.readUInt32BE(16)}×${bytes.readUInt32BE(20)}`;
}

export function mediaDemoModel(req: RecordedRequest): ScriptedTurn {
  const results = toolResultsOf(req);
  if (results.length === 0) {
    const parts = lastUserPartsOf(req);
    const image = parts.find((p) => p.type === 'image');
    const line =
      parts.find((p) => p.type === 'text')?.text.match(/\[attachment: [^\]]+\]/)?.[0] ?? '(no line)';
    const seen = image ? pngSize(Buffer.from(image.base64, 'base64')) : null;
    const report = [
      '# Checkout error',
      '',
      `- Screenshot: ${seen ? `a ${seen} PNG` : 'not shown to me'} (${line})`,
      '- Diagnosis: the payment form posts to a stale endpoint; the page shows HTTP 502.',
      '- Fix: point `PAYMENT_URL` at the current gateway and redeploy the checkout service.',
      '',
    ].join('\n');
    return {
      toolCalls: [
        { id: 'w1', name: 'file_write', arguments: { path: REPORT_PATH, content: report } },
        { id: 's1', name: 'send_file', arguments: { path: REPORT_PATH, caption: 'Incident report' } },
      ],
    };
  }
  const sent = results.find((r) => r.toolCallId === 's1')?.content ?? '';
  return {
    text: sent.startsWith('Queued')
      ? 'I looked at your screenshot: the checkout form posts to a stale payment endpoint (HTTP 502). The report follows.'
      : `I could not send the report: ${sent.slice(0, 200)}`,
  };
}
