// Tests: [channels.web.<alias>] (config.md §12.4): defaults, no bot_token, diagnostics by TOML path, live keys.
import { describe, expect, it } from 'vitest';
import { liveChannelKeys } from '../../../src/config/views.ts';
import { configOf, errors, load, MINIMAL, messages } from './load-helper.ts';

describe('[channels.web.<alias>]', () => {
  it('loads with the §12.4 defaults and needs no bot_token when enabled', () => {
    const r = load(`${MINIMAL}\n[channels.web.main]\nenabled = true\n`);
    expect(messages(r)).toEqual([]);
    expect(configOf(r).channels['web.main']).toEqual({
      type: 'web',
      key: 'web.main',
      alias: 'main',
      enabled: true,
      bot_token: undefined,
      mention_only: false,
      approval_timeout_secs: 300,
      excluded_tools: [],
      reply_min_interval_secs: 0,
      max_attachment_mb: 20,
      background_notices: true,
      streaming: 'partial',
      stream_after_ms: 800,
      stream_edit_interval_ms: 0,
      progress: 'compact',
      progress_after_ms: 2000,
      title: 'baton',
    });
  });

  it('takes title and the common keys', () => {
    const r = load(
      `${MINIMAL}\n[channels.web.team]\nenabled = true\ntitle = "Team chat"\napproval_timeout_secs = 60\nexcluded_tools = ["shell"]\nmention_only = true\n`,
    );
    expect(messages(r)).toEqual([]);
    expect(configOf(r).channels['web.team']).toMatchObject({
      title: 'Team chat',
      approval_timeout_secs: 60,
      excluded_tools: ['shell'],
      mention_only: true,
    });
  });

  it('names the TOML path of a bad value, and warns on bot_token (no such key)', () => {
    const r = load(
      `${MINIMAL}\n[channels.web.main]\nenabled = "yes"\ntitle = 3\nbot_token = "x"\napproval_timeout_secs = -1\n`,
    );
    expect(errors(r)).toEqual([
      "Invalid config at 'channels.web.main.enabled': expected boolean, found string",
      "Invalid config at 'channels.web.main.approval_timeout_secs': must not be negative",
      "Invalid config at 'channels.web.main.title': expected string, found integer",
    ]);
    expect(messages(r)).toContain("Unknown config key 'channels.web.main.bot_token' (ignored)");
  });

  it('is a live channel when an enabled agent lists it', () => {
    const r = load(
      `schema_version = 3\n[risk_profiles.p]\n[agents.a]\nrisk_profile = "p"\nchannels = ["web.main"]\n[channels.web.main]\nenabled = true\n[channels.web.off]\nenabled = true\n`,
    );
    expect(liveChannelKeys(configOf(r))).toEqual(['web.main']);
  });
});
