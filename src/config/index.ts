// Public API of the config subsystem: loading, path resolution, `config check` and derived views.
export { configCheck } from './check.ts';
export {
  DEFAULT_ALLOWED_COMMANDS,
  DEFAULT_AUTO_APPROVE,
  DEFAULT_CREDENTIAL_ENV,
  DEFAULT_FORBIDDEN_PATHS,
  DEFAULT_PROVIDER_URI,
  DEFAULT_RUNTIME_PROFILE,
} from './defaults.ts';
export {
  type LoadOptions,
  type LoadResult,
  loadConfigFile,
  loadConfigText,
  resolveConfigPath,
} from './load.ts';
export {
  agentOf,
  channelOf,
  cronJobOf,
  hasEntry,
  ownEntry,
  providerOf,
  riskProfileFor,
  runtimeProfileFor,
} from './lookup.ts';
export { formatPath } from './toml-path.ts';
export type * from './types.ts';
export {
  effectiveMaxDelegationDepth,
  effectiveMaxToolIterations,
  liveChannelKeys,
  providerTypeOf,
  reachableTargets,
  resolveApproverChannel,
} from './views.ts';
