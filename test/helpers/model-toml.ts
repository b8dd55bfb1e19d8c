// The TOML of agent `main` on the fake model: no provider retries, the empty `default` risk profile.

/** `uri` is the model's base URL, or a `${VAR}` the config loader expands. */
export const fakeModelAgentToml = (uri: string) => `
[providers.models.custom.fake]
uri = "${uri}"
model = "fake-model"

[reliability]
provider_retries = 0

[risk_profiles.default]

[agents.main]
model_provider = "custom.fake"
risk_profile = "default"
`;
