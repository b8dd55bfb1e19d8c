// Slack file objects → attachments: kinds, sources, and what cannot be fetched (pure mapping rules).
import { describe, expect, it } from 'vitest';
import { slackAttachments, slackFileKind } from '../../../channels/slack/files.ts';
import { type InboundContext, mapMessage } from '../../../channels/slack/inbound.ts';
import { attachmentReasons } from '../../../src/media/media-messages.ts';

const file = (over: Record<string, unknown> = {}) => ({
  id: 'F1',
  name: 'report.pdf',
  title: 'Report',
  mimetype: 'application/pdf',
  filetype: 'pdf',
  size: 1234,
  mode: 'hosted',
  url_private: 'https://files.slack.com/files-pri/T1-F1/report.pdf',
  url_private_download: 'https://files.slack.com/files-pri/T1-F1/download/report.pdf',
  ...over,
});
const ctx: InboundContext = {
  channelKey: 'slack.t',
  botUserId: 'U0BOT',
  botId: 'B0BOT',
  threadReplies: true,
  channelIds: new Set(),
};

describe('slack files as attachments', () => {
  it('maps a file to its kind, name, size, type and download URL', () => {
    expect(slackAttachments([file()])).toEqual([
      {
        kind: 'document',
        name: 'report.pdf',
        size: 1234,
        mime: 'application/pdf',
        source: 'https://files.slack.com/files-pri/T1-F1/download/report.pdf',
      },
    ]);
    const noDownload = slackAttachments([file({ url_private_download: undefined })])[0];
    expect(noDownload?.source).toBe('https://files.slack.com/files-pri/T1-F1/report.pdf');
  });

  it('kinds: images, audio, Slack voice and video clips, video, documents, anything else', () => {
    expect(slackFileKind({ mimetype: 'image/png', filetype: 'png' })).toBe('image');
    expect(slackFileKind({ mimetype: 'audio/mpeg', filetype: 'mp3' })).toBe('audio');
    expect(slackFileKind({ subtype: 'slack_audio', mimetype: 'audio/webm', filetype: 'webm' })).toBe('voice');
    expect(slackFileKind({ subtype: 'slack_video', mimetype: 'video/mp4', filetype: 'mp4' })).toBe('video');
    expect(slackFileKind({ mimetype: 'video/quicktime', filetype: 'mov' })).toBe('video');
    for (const mimetype of [
      'application/pdf',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/msword',
      'text/plain',
      'text/csv',
    ]) {
      expect(slackFileKind({ mimetype, filetype: 'x' })).toBe('document');
    }
    expect(slackFileKind({ mimetype: 'application/zip', filetype: 'zip' })).toBe('file');
    expect(slackFileKind({ mimetype: 'application/octet-stream', filetype: 'binary' })).toBe('file');
    expect(slackFileKind({ filetype: 'jpg' })).toBe('image');
    expect(slackFileKind({})).toBe('file');
  });

  it('reports files that cannot be fetched instead of dropping them', () => {
    const [deleted, hidden, drive, connect, noUrl, junk] = slackAttachments([
      file({ mode: 'tombstone', url_private: undefined, url_private_download: undefined }),
      file({ mode: 'hidden_by_limit' }),
      file({ is_external: true, mode: 'external', url_private: 'https://docs.google.com/x' }),
      { id: 'F9', file_access: 'check_file_info' },
      file({ url_private: undefined, url_private_download: undefined }),
      'not a file',
    ]);
    expect(deleted).toMatchObject({ name: 'report.pdf', failed: attachmentReasons.notFound });
    expect(hidden?.failed).toBe(attachmentReasons.notFound);
    expect(drive?.failed).toBe(attachmentReasons.notOnPlatform);
    expect(connect).toEqual({ kind: 'file', name: 'file-F9', source: 'slack-file:F9' });
    expect(noUrl?.failed).toBe(attachmentReasons.notFound);
    expect(junk).toEqual({ kind: 'file', name: 'file-6', failed: attachmentReasons.notFound });
  });

  it('keeps odd names raw but bounded, and drops sizes and types that make no sense', () => {
    const [a, b] = slackAttachments([
      file({ name: '../../etc/passwd\u0000\n', size: -1, mimetype: 'x'.repeat(300) }),
      file({ name: 'n'.repeat(20_000), size: 1.5 }),
    ]);
    expect(a).toMatchObject({ name: '../../etc/passwd\u0000\n' });
    expect(a?.size).toBeUndefined();
    expect(a?.mime).toBeUndefined();
    expect(b?.name).toHaveLength(10_000);
    expect(b?.size).toBeUndefined();
    expect(slackAttachments(Array.from({ length: 60 }, () => file()))).toHaveLength(50);
    // A URL too long to carry (it holds the name) is looked up by the file's id instead.
    const long = slackAttachments([
      file({ url_private_download: `https://files.slack.com/${'x'.repeat(9000)}` }),
    ]);
    expect(long[0]?.source).toBe('slack-file:F1');
  });

  it('makes a message with files and no words a turn with an empty text', () => {
    const raw = {
      type: 'message',
      subtype: 'file_share',
      channel: 'C1',
      user: 'U1',
      ts: '1.2',
      files: [file()],
    };
    expect(mapMessage(raw, ctx)).toMatchObject({
      ok: true,
      event: { text: '', attachments: [{ kind: 'document', name: 'report.pdf' }] },
    });
    const withWords = mapMessage({ ...raw, text: '<@U0BOT> read this' }, ctx);
    expect(withWords).toMatchObject({ ok: true, event: { text: 'read this', addressedToBot: true } });
    // Malformed `files` reads as none: the words still make a turn, no words make nothing.
    expect(mapMessage({ ...raw, files: 'x', text: 'hi' }, ctx)).toMatchObject({
      ok: true,
      event: { text: 'hi' },
    });
    expect(mapMessage({ ...raw, files: 'x' }, ctx).ok).toBe(false);
  });
});
