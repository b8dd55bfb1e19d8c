// A screenshot in, a report back (media.md §1 and §2 together): the model sees the image and its saved-as line,
// reads the saved file with its file tool, writes a report and sends it with send_file; the chat gets the answer,
// then the report, once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastUserPartsOf, toolResultsOf } from '../../fakes/model-requests.ts';
import { createRuntimeHarness, localPeers, type RuntimeHarness } from '../../helpers/runtime-harness.ts';
import { PNG } from './media-fixture.ts';

const TOML = `
[providers.models.custom.fake]
uri = "\${MODEL_URI}"
model = "fake-model"
vision = true

[reliability]
provider_retries = 0

[risk_profiles.default]
auto_approve = ["send_file", "file_write"]

[agents.main]
model_provider = "custom.fake"
risk_profile = "default"
${localPeers()}
`;

let h: RuntimeHarness;
beforeAll(async () => {
  h = await createRuntimeHarness('media-round-trip', TOML);
});
afterAll(() => h?.close());

describe('a screenshot in, a report back', () => {
  it('the model sees the image, its file tool reads the saved copy, send_file returns a report after the answer', async () => {
    const saved = 'inbox/local.test_desk_/shot-1-screen.png';
    h.server.script([
      { toolCalls: [{ id: 'r1', name: 'file_read', arguments: { path: saved } }] },
      {
        toolCalls: [
          {
            id: 'w1',
            name: 'file_write',
            arguments: { path: 'report.md', content: '# Report\nOne red pixel.\n' },
          },
        ],
      },
      {
        toolCalls: [
          { id: 's1', name: 'send_file', arguments: { path: 'report.md', caption: 'your report' } },
        ],
      },
      { text: 'Done: one red pixel.' },
    ]);
    await h.local.inject({
      chat: 'desk',
      text: 'what is on my screen?',
      eventId: 'shot-1',
      files: [{ kind: 'image', name: 'screen.png', bytes: PNG, mime: 'image/png' }],
    });
    const [answer, report] = await h.local.waitForReplies(2, { chat: 'desk', timeoutMs: 30_000 });
    expect(answer?.text).toBe('Done: one red pixel.');
    expect(report?.file).toMatchObject({ name: 'report.md', as: 'document', caption: 'your report' });
    expect(Buffer.from(report!.file!.bytes).toString()).toBe('# Report\nOne red pixel.\n');

    // Every request of the turn carries the image with its line (the current message of each iteration).
    const line = `[attachment: image screen.png, ${PNG.length} B, saved as ${saved}]`;
    expect(h.server.requests).toHaveLength(4);
    for (const req of h.server.requests) {
      expect(lastUserPartsOf(req)).toEqual([
        { type: 'text', text: `what is on my screen?\n${line}` },
        { type: 'image', mediaType: 'image/png', base64: PNG.toString('base64') },
      ]);
    }
    // The file tool read the bytes the gateway stored (a PNG reads back as its first bytes' text, at least).
    const read = toolResultsOf(h.server.requests[1]!).find((r) => r.toolCallId === 'r1');
    expect(read?.content).toContain('PNG');
    expect(h.local.replies).toHaveLength(2);
  });
});
