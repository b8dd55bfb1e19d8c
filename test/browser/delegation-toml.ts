// The config of the dashboard tests that delegate: `main` (the local channel's agent) may delegate to `helper`,
// which runs on its own model (`helper-model`; main's is `fake-model`). `extra` is appended.
import { localPeers } from '../helpers/runtime-harness.ts';

export const delegationToml = (extra = '') => `
[providers.models.custom.fake]
uri = "\${MODEL_URI}"
model = "fake-model"

[providers.models.custom.helperfake]
uri = "\${MODEL_URI}"
model = "helper-model"

[reliability]
provider_retries = 0

[risk_profiles.default]
delegation_policy = { mode = "allow" }
auto_approve = ["delegate"]

[agents.main]
model_provider = "custom.fake"
risk_profile = "default"

[agents.helper]
model_provider = "custom.helperfake"
risk_profile = "default"
${localPeers()}
${extra}`;
