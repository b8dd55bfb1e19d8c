// The Slack adapter against the real API: Socket Mode connects, send, edit, and the history shows the edit.
// Runs only with SLACK_BOT_TOKEN, SLACK_APP_TOKEN and BATON_LIVE_SLACK_CHANNEL (a channel id the bot is in;
// reading it back needs the channels:history scope, or groups:history for a private channel).
import { describe, expect, it } from 'vitest';
import { createSlackAdapter } from '../../channels/slack/slack-adapter.ts';
import { createSilentLogger } from '../../src/core/logger.ts';
import { ignoringHost, liveEnv, liveNonce } from '../helpers/live-env.ts';

const live = liveEnv(['SLACK_BOT_TOKEN', 'SLACK_APP_TOKEN', 'BATON_LIVE_SLACK_CHANNEL']);
const token = live.vars.SLACK_BOT_TOKEN ?? '';
const channel = live.vars.BATON_LIVE_SLACK_CHANNEL ?? '';
const API = 'https://slack.com/api/';

async function slack(method: string, params: Record<string, string>) {
  const res = await fetch(`${API}${method}?${new URLSearchParams(params)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return (await res.json()) as { ok: boolean; error?: string; messages?: { text?: string }[] };
}

describe.skipIf(live.skipReason)(`live Slack ${live.skipReason ? `(${live.skipReason})` : ''}`, () => {
  it('connects over Socket Mode, sends a message and edits it through the real API', async () => {
    const adapter = createSlackAdapter({
      alias: 'live',
      botToken: token,
      appToken: live.vars.SLACK_APP_TOKEN,
      apiBaseUrl: API,
      channelIds: [channel],
      threadReplies: false,
      logger: createSilentLogger(),
    });
    await adapter.start(ignoringHost);
    try {
      const text = liveNonce();
      const ref = await adapter.send({ channel: 'slack.live', chat: channel }, { text });
      await adapter.edit(ref, { text: `${text} (edited)` });
      const at = { channel: ref.chat, latest: ref.messageId, oldest: ref.messageId, inclusive: 'true' };
      const history = await slack('conversations.history', { ...at, limit: '1' });
      expect(history.error).toBeUndefined();
      expect(history.messages?.[0]?.text).toBe(`${text} (edited)`);
      await slack('chat.delete', { channel: ref.chat, ts: ref.messageId }).catch(() => {});
    } finally {
      await adapter.stop();
    }
  });
});
