// Tests: [channels.telegram.<alias>] webhook_url / webhook_secret [baton decision]: loaded without unknown-key
// warnings, the secret redacted, and the config errors (verbatim) for a missing or malformed secret or URL.
import { describe, expect, it } from 'vitest';
import { configOf, errors, load, MINIMAL, messages } from './load-helper.ts';

const SECRET = 'tg-webhook-secret_0123456789';
const channel = (lines: string) =>
  `${MINIMAL}\n[channels.telegram.hook]\nenabled = true\nbot_token = "123:abc"\n${lines}\n`;

describe('telegram webhook keys', () => {
  it('load with no diagnostic and reach the channel config; the secret joins the secret set', () => {
    const r = load(
      channel(
        `webhook_url = "https://bot.example.com/baton/telegram/hook/webhook"\nwebhook_secret = "${SECRET}"`,
      ),
    );
    expect(messages(r)).toEqual([]);
    const config = configOf(r);
    expect(config.channels['telegram.hook']).toMatchObject({
      webhook_url: 'https://bot.example.com/baton/telegram/hook/webhook',
      webhook_secret: SECRET,
    });
    expect(config.secrets).toContain(SECRET);
  });

  it('are absent by default (long polling)', () => {
    const config = configOf(load(channel('')));
    expect(config.channels['telegram.hook']).toMatchObject({
      webhook_url: undefined,
      webhook_secret: undefined,
    });
  });

  it('require webhook_secret with webhook_url on an enabled channel', () => {
    const r = load(channel('webhook_url = "https://bot.example.com/telegram/hook/webhook"'));
    expect(errors(r)).toEqual([
      "Invalid config at 'channels.telegram.hook.webhook_secret': required when webhook_url is set",
    ]);
  });

  it("refuse a secret outside Telegram's secret_token alphabet or length", () => {
    for (const bad of ['has space', 'dot.ted', '', 'x'.repeat(257)]) {
      const r = load(
        channel(`webhook_url = "https://bot.example.com/telegram/hook/webhook"\nwebhook_secret = "${bad}"`),
      );
      expect(errors(r)).toEqual([
        "Invalid config at 'channels.telegram.hook.webhook_secret': must be 1 to 256 characters of A-Z, a-z, 0-9, _ and -",
      ]);
    }
    const longest = load(
      channel(
        `webhook_url = "https://h.example/telegram/hook/webhook"\nwebhook_secret = "${'a'.repeat(256)}"`,
      ),
    );
    expect(errors(longest)).toEqual([]);
  });

  it('refuse a URL that is not http(s) or does not lead to /telegram/<alias>/webhook', () => {
    for (const bad of [
      'https://bot.example.com/',
      'https://bot.example.com/telegram/other/webhook',
      'ftp://bot.example.com/telegram/hook/webhook',
      'not a url',
    ]) {
      const r = load(channel(`webhook_url = "${bad}"\nwebhook_secret = "${SECRET}"`));
      expect(errors(r)).toEqual([
        "Invalid config at 'channels.telegram.hook.webhook_url': expected an http(s) URL whose path ends with /telegram/hook/webhook (the route baton serves)",
      ]);
    }
  });
});
