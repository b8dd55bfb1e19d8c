// [channels.slack.<alias>] → the Slack adapter in Socket Mode (app_token) or HTTP mode (signing_secret only).
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.ts';
import { createChannelAdapters } from '../../../src/roles/channel-adapters.ts';
import { configFromToml } from '../../helpers/test-config.ts';

async function adaptersFor(slack: string) {
  const config = configFromToml(`
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
`);
  const lines: Array<{ level: number; msg: string; channel?: string }> = [];
  const logger = createLogger({
    level: 'debug',
    destination: { write: (l: string) => void lines.push(JSON.parse(l)) },
  });
  return { adapters: await createChannelAdapters(config, logger), lines };
}

describe('slack adapter factory', () => {
  it('builds slack.<alias> in Socket Mode when app_token is set', async () => {
    const { adapters, lines } = await adaptersFor('app_token = "xapp-1"\nsigning_secret = "s"');
    expect(adapters.map((a) => [a.key, a.maxMessageLength])).toEqual([['slack.team', 3000]]);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });

  it('with only signing_secret, builds slack.<alias> in HTTP mode with its events route', async () => {
    const { adapters, lines } = await adaptersFor('signing_secret = "s"');
    expect(adapters.map((a) => a.key)).toEqual(['slack.team']);
    expect(adapters[0]?.routes?.().map((r) => [r.method, r.path])).toEqual([['POST', '/slack/team/events']]);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });

  it('serves no HTTP route in Socket Mode (both set: Socket Mode wins)', async () => {
    const { adapters } = await adaptersFor('app_token = "xapp-1"\nsigning_secret = "s"');
    expect(adapters[0]?.routes?.() ?? []).toEqual([]);
  });
});
