// The web chat tests' channel: `web.main`, open to the local web user.
export const WEB_CHAT_TOML = `
[channels.web.main]
enabled = true
title = "Test chat"

[peer_groups.web]
channel = "web"
agents = ["main"]
external_peers = ["web:local"]
`;
