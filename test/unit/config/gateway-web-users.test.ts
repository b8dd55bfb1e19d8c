// Tests: [gateway] trusted_proxies and [gateway.web_users.<login>]: defaults, diagnostics by TOML path, and the
// token a trusted proxy makes necessary.
import { describe, expect, it } from 'vitest';
import { hashWebSecret } from '../../../src/web/users/web-secret.ts';
import { configOf, errors, load, MINIMAL, messages } from './load-helper.ts';

const HASH = await hashWebSecret('correct horse battery');

describe('[gateway] trusted_proxies and web_users', () => {
  it('defaults to no proxies and no web users', () => {
    const g = configOf(load(MINIMAL)).gateway;
    expect(g.trusted_proxies).toEqual([]);
    expect(g.web_users).toEqual({});
  });

  it('loads users (operator defaults to false) and proxy addresses and ranges', () => {
    const r = load(
      `${MINIMAL}\n[gateway]\napi_token = "t0k3n-long-enough"\ntrusted_proxies = ["10.0.0.5", "10.1.0.0/16", "::1", "fd00::/8"]\n[gateway.web_users.alice]\nsecret_hash = "${HASH}"\noperator = true\n[gateway.web_users.bob]\nsecret_hash = "${HASH}"\n`,
    );
    expect(messages(r)).toEqual([]);
    const g = configOf(r).gateway;
    expect(g.trusted_proxies).toEqual(['10.0.0.5', '10.1.0.0/16', '::1', 'fd00::/8']);
    expect(g.web_users).toEqual({
      alice: { secret_hash: HASH, operator: true },
      bob: { secret_hash: HASH, operator: false },
    });
  });

  it('names the TOML path of every bad value', () => {
    const r = load(
      `${MINIMAL}\n[gateway]\napi_token = "t0k3n-long-enough"\ntrusted_proxies = ["10.0.0.5", "proxy.example", "10.0.0.0/33"]\n[gateway.web_users.Alice]\nsecret_hash = "${HASH}"\n[gateway.web_users.operator]\nsecret_hash = "${HASH}"\n[gateway.web_users.carol]\nsecret_hash = "plaintext"\noperator = "yes"\n`,
    );
    expect(errors(r)).toEqual(
      expect.arrayContaining([
        `Invalid config at 'gateway.trusted_proxies[1]': expected an IP address or CIDR range, e.g. "10.0.0.5" or "10.0.0.0/8"`,
        `Invalid config at 'gateway.trusted_proxies[2]': expected an IP address or CIDR range, e.g. "10.0.0.5" or "10.0.0.0/8"`,
        `Invalid config at 'gateway.web_users.carol.secret_hash': expected a hash written by \`baton web add-user\` (scrypt$15$8$1$<salt>$<hash>)`,
        `Invalid config at 'gateway.web_users.carol.operator': expected boolean, found string`,
        `Invalid config at 'gateway.web_users.Alice': web login must match [a-z0-9][a-z0-9._-]{0,31}`,
        `Invalid config at 'gateway.web_users.operator': "operator" is reserved (the api_token sign-in and the loopback user)`,
      ]),
    );
    expect(errors(r)).toHaveLength(6);
  });

  it('requires api_token once proxies are trusted, even on a loopback bind', () => {
    const r = load(`${MINIMAL}\n[gateway]\ntrusted_proxies = ["127.0.0.1"]\n`);
    expect(errors(r)).toEqual([
      "Invalid config at 'gateway.api_token': required when gateway.trusted_proxies is set (a proxy makes every request look local)",
    ]);
  });
});
