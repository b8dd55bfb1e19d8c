// [channels.slack.<alias>] → the Slack adapter (Socket Mode), or a clear error and no adapter (HTTP mode).
import { describe, expect, it } from 'vitest';
import { HTTP_MODE_NOT_AVAILABLE } from '../../../channels/slack/messages.ts';
import { loadConfigText } from '../../../src/config/index.ts';
import { createLogger } from '../../../src/core/logger.ts';
import { createChannelAdapters } from '../../../src/runtime/channel-adapters.ts';

function adaptersFor(slack: string) {
  const loaded = loadConfigText(
    `
[providers.models.custom.fake]
uri = "http://127.0.0.1:1/v1"
model = "m"

[risk_profiles.default]

[agents.main]
model_provider = "custom.fake"
risk_profile = "default"

[channels.slack.team]
enabled = true
bot_token = "xoxb-1"
${slack}
`,
    {},
  );
  expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const lines: Array<{ level: number; msg: string; channel?: string }> = [];
  const logger = createLogger({
    level: 'debug',
    destination: { write: (l: string) => void lines.push(JSON.parse(l)) },
  });
  return { adapters: createChannelAdapters(loaded.config!, logger), lines };
}

describe('slack adapter factory', () => {
  it('builds slack.<alias> in Socket Mode when app_token is set', () => {
    const { adapters, lines } = adaptersFor('app_token = "xapp-1"\nsigning_secret = "s"');
    expect(adapters.map((a) => [a.key, a.maxMessageLength])).toEqual([['slack.team', 3000]]);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });

  it('with only signing_secret, logs that HTTP mode is not in this build and builds nothing', () => {
    const { adapters, lines } = adaptersFor('signing_secret = "s"');
    expect(adapters).toEqual([]);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 50, channel: 'slack.team', msg: HTTP_MODE_NOT_AVAILABLE }),
    );
  });
});
