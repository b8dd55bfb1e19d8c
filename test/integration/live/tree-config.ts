// The config of the live-tree API tests: `main` on the fake model, spawn_subagent auto-approved, and a price for
// the fake model (11 input and 7 output tokens a reply, the fake's default: 25 micro-dollars) so hops have a cost.
export const TREE_TOML = `
[providers.models.custom.fake]
uri = "\${MODEL_URI}"
model = "fake-model"

[reliability]
provider_retries = 0

[cost.rates.providers.models.custom."fake-model"]
input_per_mtok = 1.0
output_per_mtok = 2.0

[risk_profiles.default]
auto_approve = ["spawn_subagent"]

[agents.main]
model_provider = "custom.fake"
risk_profile = "default"
`;
