// Web users for tests: `[gateway.web_users.<login>]` tables with one known secret (hashed once, here).

export const TEST_WEB_SECRET = 'test-web-secret-1';
/** `hashWebSecret(TEST_WEB_SECRET, 14)`, fixed so tests do not pay for scrypt at every load. */
export const TEST_WEB_SECRET_HASH =
  'scrypt$14$8$1$uFXxTJZ29c-TMdR318t9Xw$Gvytki1PGS7t--uBN-7ZAIRSMHqQOr6yLlYrLz053DI';

/** TOML for these users (a login in `operators` gets `operator = true`). */
export function webUsersToml(logins: readonly string[], operators: readonly string[] = []): string {
  return logins
    .map(
      (l) =>
        `\n[gateway.web_users.${l}]\nsecret_hash = "${TEST_WEB_SECRET_HASH}"${operators.includes(l) ? '\noperator = true' : ''}\n`,
    )
    .join('');
}
