// TOML pieces the tests' configs share.
import { REDIS_URL } from './redis.ts';

/** Agent `main` on the fake model, no provider retries, the empty `default` risk profile. `uri` is the model's
 * base URL, or a `${VAR}` the config loader expands. */
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

/** The head of a `baton` process's config: the test Redis under `prefix`, the gateway on 127.0.0.1:`port`. */
export const redisGatewayToml = (prefix: string, port: number, dataDir: string) => `schema_version = 3
[redis]
url = "${REDIS_URL}"
prefix = "${prefix}"

[gateway]
host = "127.0.0.1"
port = ${port}
data_dir = "${dataDir}"
`;
