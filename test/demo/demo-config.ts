// The demo's deployment: Telegram `home` for the user, Slack `ops` as the approver room, `main` delegating to the
// independent `sysadmin`, whose profile asks #ops before any shell command.

export const USER_ID = 7;
export const DEMO_BOT_TOKEN = '123456:demo-bot-token';
export const USER_CHAT = 4242;
export const OPS_ROOM = 'C0OPS';
export const OPS_LEAD = 'U0OPSLEAD';

export interface DemoEndpoints {
  redisUrl: string;
  prefix: string;
  dataDir: string;
  port: number;
  modelUrl: string;
  telegramUrl: string;
  slackUrl: string;
}

/** What both demos' configs start with: Redis, a quick worker shutdown, no provider retries, the gateway. */
export function demoHeadToml(e: Pick<DemoEndpoints, 'redisUrl' | 'prefix' | 'dataDir' | 'port'>): string {
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
`;
}

export function demoToml(e: DemoEndpoints): string {
  return `${demoHeadToml(e)}

[providers.models.custom.main]
uri = "${e.modelUrl}"
model = "main-model"

[providers.models.custom.sysadmin]
uri = "${e.modelUrl}"
model = "sysadmin-model"

[risk_profiles.orchestrator]
level = "supervised"
delegation_policy = { mode = "allow" }
allowed_tools = ["delegate"]
auto_approve = ["delegate"]

[risk_profiles.worker]
level = "supervised"
allowed_tools = ["shell"]
allowed_commands = ["df"]
always_ask = ["shell"]

[risk_profiles.worker.approval_route]
approver_channel = "slack.ops"
approver_recipient = "${OPS_ROOM}"
on_no_approver = "deny"
timeout_secs = 120

[runtime_profiles.agentic]
agentic = true
max_tool_iterations = 4
agentic_timeout_secs = 240

[agents.main]
model_provider = "custom.main"
risk_profile = "orchestrator"
channels = ["telegram.home"]
delegates = [{ agent = "sysadmin", mode = "independent" }]

[agents.sysadmin]
model_provider = "custom.sysadmin"
risk_profile = "worker"
runtime_profile = "agentic"
channels = ["slack.ops"]

[channels.telegram.home]
enabled = true
bot_token = "${DEMO_BOT_TOKEN}"
api_base_url = "${e.telegramUrl}"

[channels.slack.ops]
enabled = true
bot_token = "xoxb-demo"
app_token = "xapp-demo"
api_base_url = "${e.slackUrl}"

[peer_groups.users]
channel = "telegram.home"
agents = ["main"]
external_peers = ["${USER_ID}"]

[peer_groups.ops]
channel = "slack.ops"
agents = ["sysadmin"]
external_peers = ["${OPS_LEAD}"]
`;
}
