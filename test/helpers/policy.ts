// A SecurityPolicy for tests of the policy functions themselves (command policy, path guard, narrowing, sandbox).
import { buildSecurityPolicy } from '../../src/security/policy.ts';
import type { SecurityPolicy } from '../../src/security/types.ts';
import { configFromToml } from './test-config.ts';

/** Agent `main` on an empty (so default, supervised) risk profile, its workspace at /srv/baton/workspaces/main. */
const DEFAULT_PROFILE_TOML = `
schema_version = 3

[gateway]
data_dir = "/srv/baton"

[risk_profiles.default]

[agents.main]
risk_profile = "default"
`;

let base: SecurityPolicy | undefined;

/** The policy the loader and buildSecurityPolicy give the default profile's agent, with `over` applied to it. */
export function buildPolicy(over: Partial<SecurityPolicy> = {}): SecurityPolicy {
  base ??= buildSecurityPolicy(configFromToml(DEFAULT_PROFILE_TOML), 'main');
  return structuredClone({ ...base, ...over });
}
