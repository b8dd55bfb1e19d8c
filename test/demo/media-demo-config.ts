// The media demo's deployment: Telegram `home`, agent `main` on a model with vision, allowed to write a report
// in its workspace and send it back (file tools auto-approved: the approval story is `npm run demo`'s).
import { DEMO_BOT_TOKEN, type DemoEndpoints, demoHeadToml, USER_ID } from './demo-config.ts';

export type MediaDemoEndpoints = Omit<DemoEndpoints, 'slackUrl'>;

export function mediaDemoToml(e: MediaDemoEndpoints): string {
  return `${demoHeadToml(e)}
[providers.models.custom.vision]
uri = "${e.modelUrl}"
model = "vision-model"
vision = true

[risk_profiles.reporter]
level = "supervised"
allowed_tools = ["file_read", "file_write", "send_file"]
auto_approve = ["file_write", "send_file"]

[agents.main]
model_provider = "custom.vision"
risk_profile = "reporter"
channels = ["telegram.home"]

[channels.telegram.home]
enabled = true
bot_token = "${DEMO_BOT_TOKEN}"
api_base_url = "${e.telegramUrl}"
streaming = "off"
progress = "off"

[peer_groups.users]
channel = "telegram.home"
agents = ["main"]
external_peers = ["${USER_ID}"]
`;
}
