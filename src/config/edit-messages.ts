// The texts of config-file edits (toml-edit.ts, config-file-edit.ts): what an operator sees when an edit is refused.

export const notToml = 'the file is not valid TOML';
export const cannotEdit = (why: string): string => `cannot edit the config: ${why}`;
export const profileNotDefined = (profile: string): string =>
  `risk profile "${profile}" is not defined in the config file`;
export const unsafeEdit = (profile: string): string =>
  `cannot edit risk_profiles.${profile}.delegation_policy.mode in this file safely`;
export const editHasErrors = 'the edited config has errors; the file was not changed';
export const fileLocked = (lock: string): string => `the config file is locked by another edit (${lock})`;
export const unsafePeerEdit = (group: string): string =>
  `cannot add to peer_groups.${group}.external_peers in this file safely`;
