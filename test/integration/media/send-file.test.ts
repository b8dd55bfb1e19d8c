// send_file end to end on the local channel (media.md §2): the file leaves with the turn's answer, after its text,
// once; an image goes as a photo; a run with no chat gets a clear tool error; refusals leave nothing queued.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sendFileTexts } from '../../../src/media/media-messages.ts';
import { toolResultsOf } from '../../fakes/model-requests.ts';
import { type AgentHarness, createAgentHarness } from '../../helpers/agent-harness.ts';
import { createRuntimeHarness, localPeers, type RuntimeHarness } from '../../helpers/runtime-harness.ts';
import { SEND_FILE_AGENT_TOML } from '../../helpers/test-config.ts';

const TOML = `
${SEND_FILE_AGENT_TOML}${localPeers()}
`;

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

let h: RuntimeHarness;
let workspace: string;
beforeAll(async () => {
  h = await createRuntimeHarness('send-file', TOML);
  workspace = join(h.dataDir, 'workspaces', 'main');
  mkdirSync(workspace, { recursive: true });
});
afterAll(() => h.close());
beforeEach(() => {
  h.server.reset();
  h.local.replies.length = 0;
});

const sendCall = (id: string, args: Record<string, unknown>) => ({
  toolCalls: [{ id, name: 'send_file', arguments: args }],
});

describe('send_file on a chat', () => {
  it('sends the file after the answer text, once, with its caption', async () => {
    writeFileSync(join(workspace, 'report.txt'), 'quarterly numbers\n');
    h.server.script([sendCall('s1', { path: 'report.txt', caption: 'the report' }), { text: 'Here it is.' }]);
    await h.local.inject({ chat: 'doc', text: 'send me the report' });
    const [answer, file] = await h.local.waitForReplies(2, { chat: 'doc' });
    expect(answer?.text).toBe('Here it is.');
    expect(answer?.file).toBeUndefined();
    expect(file?.file).toMatchObject({
      name: 'report.txt',
      mime: 'text/plain',
      as: 'document',
      caption: 'the report',
    });
    expect(Buffer.from(file!.file!.bytes).toString()).toBe('quarterly numbers\n');
    const result = toolResultsOf(h.server.requests[1]!).find((r) => r.toolCallId === 's1');
    expect(result?.content).toContain(sendFileTexts.queued('report.txt', 18, 'document'));
    // The conversation's next answer comes after it: no second copy of the file was queued meanwhile.
    h.server.script([{ text: 'next' }]);
    await h.local.inject({ chat: 'doc', text: 'thanks' });
    const all = await h.local.waitForReplies(3, { chat: 'doc' });
    expect(all.map((r) => (r.file ? `file:${r.file.name}` : r.text))).toEqual([
      'Here it is.',
      'file:report.txt',
      'next',
    ]);
    // The bytes are dropped from Redis once sent.
    expect(await h.redis.keys(`${h.prefix}:blob:out:*`)).toEqual([]);
  });

  it('sends an image as a photo, recognised by its bytes', async () => {
    writeFileSync(join(workspace, 'chart.bin'), PNG);
    h.server.script([sendCall('p1', { path: 'chart.bin' }), { text: 'Chart attached.' }]);
    await h.local.inject({ chat: 'img', text: 'chart please' });
    const [, file] = await h.local.waitForReplies(2, { chat: 'img' });
    expect(file?.file).toMatchObject({ name: 'chart.bin', mime: 'image/png', as: 'photo' });
  });

  it('refuses a photo that is not an image, a missing file and a path outside the workspace', async () => {
    writeFileSync(join(workspace, 'notes.txt'), 'plain text');
    h.server.script([
      {
        toolCalls: [
          { id: 'a', name: 'send_file', arguments: { path: 'notes.txt', as: 'photo' } },
          { id: 'b', name: 'send_file', arguments: { path: 'missing.pdf' } },
          { id: 'c', name: 'send_file', arguments: { path: '/etc/passwd' } },
        ],
      },
      { text: 'could not' },
    ]);
    await h.local.inject({ chat: 'bad', text: 'send things' });
    const replies = await h.local.waitForReplies(1, { chat: 'bad' });
    const results = toolResultsOf(h.server.requests[1]!);
    expect(results.find((r) => r.toolCallId === 'a')?.content).toContain(sendFileTexts.notImage('notes.txt'));
    expect(results.find((r) => r.toolCallId === 'b')?.content).toContain('File not found: missing.pdf');
    expect(results.find((r) => r.toolCallId === 'c')?.content).not.toContain('root:');
    // Nothing was queued: the next answer arrives with no file before it.
    h.server.script([{ text: 'ok' }]);
    await h.local.inject({ chat: 'bad', text: 'again' });
    const all = await h.local.waitForReplies(2, { chat: 'bad' });
    expect(all.every((r) => !r.file)).toBe(true);
    expect(replies[0]?.text).toBe('could not');
  });
});

describe('send_file with no chat', () => {
  let a: AgentHarness;
  beforeAll(async () => {
    a = await createAgentHarness('send-file-cli', TOML);
  });
  afterAll(() => a.close());

  it('is a clear tool error in a one-shot run', async () => {
    a.server.script([sendCall('n1', { path: 'report.txt' }), { text: 'no chat' }]);
    await a.turn('main', 'send it');
    const result = toolResultsOf(a.server.requests[1]!).find((r) => r.toolCallId === 'n1');
    expect(result?.content).toContain(sendFileTexts.noChat);
  });
});
