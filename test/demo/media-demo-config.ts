// The media demo's deployment: Telegram `home`, agent `main` on a model with vision, allowed to write a report
// in its workspace and send it back (file tools auto-approved: the approval story is `npm run demo`'s).
import { DEMO_BOT_TOKEN, USER_ID } from './demo-config.ts';

export interface MediaDemoEndpoints {
  redisUrl: string;
  prefix: string;
  dataDir: string;
  port: number;
  modelUrl: string;
  telegramUrl: string;
}

export function mediaDemoToml(e: MediaDemoEndpoints): string {
  return `schema_version = 3

[redis]
url = "${e.redisUrl}"
prefix = "${e.prefix}"

[worker]
shutdown_grace_secs = 2

[reliability]
provider_retries = 0

[gateway]
host = "127.0.0.1"
port = ${e.port}
data_dir = "${e.dataDir}"

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
