// The Slack tests' config: one workspace channel on the fake Web API, alice allowed to talk to `main`.
import { runtimeToml } from '../../helpers/runtime-harness.ts';

/** `auth` is the mode's credential lines (`app_token = …` for Socket Mode, `signing_secret = …` for HTTP). */
export function slackToml(alias: string, apiUrl: string, auth: string, botToken = 'xoxb-test'): string {
  return runtimeToml(`
[channels.slack.${alias}]
enabled = true
bot_token = "${botToken}"
${auth}
api_base_url = "${apiUrl}"

[peer_groups.slack]
channel = "slack.${alias}"
agents = ["main"]
external_peers = ["U0ALICE"]
`);
}
