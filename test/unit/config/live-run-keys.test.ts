// Tests: the live-run keys of every [channels.<type>.<alias>] table (live.md §5): defaults, forms, TOML paths.
import { describe, expect, it } from 'vitest';
import { configOf, errors, load, MINIMAL, messages } from './load-helper.ts';

describe('live-run channel keys (live.md §5)', () => {
  it('takes every key on every channel type', () => {
    const keys =
      'streaming = "off"\nstream_after_ms = 0\nstream_edit_interval_ms = 250\nprogress = "verbose"\nprogress_after_ms = 500\nbackground_notices = false\n';
    const r = load(
      `${MINIMAL}\n[channels.telegram.t]\n${keys}[channels.discord.d]\n${keys}[channels.slack.s]\n${keys}[channels.web.w]\n${keys}`,
    );
    expect(messages(r)).toEqual([]);
    for (const key of ['telegram.t', 'discord.d', 'slack.s', 'web.w']) {
      expect(configOf(r).channels[key]).toMatchObject({
        streaming: 'off',
        stream_after_ms: 0,
        stream_edit_interval_ms: 250,
        progress: 'verbose',
        progress_after_ms: 500,
        background_notices: false,
      });
    }
  });

  it('names the TOML path of each bad value', () => {
    const r = load(
      `${MINIMAL}\n[channels.telegram.t]\nstreaming = "full"\nstream_edit_interval_ms = 100\nprogress = "loud"\nprogress_after_ms = -1\n[channels.web.w]\nstream_edit_interval_ms = 100\nstream_after_ms = 1.5\n`,
    );
    expect(errors(r)).toEqual([
      'Invalid config at \'channels.telegram.t.streaming\': expected one of "partial", "off", found "full"',
      "Invalid config at 'channels.telegram.t.stream_edit_interval_ms': must be at least 250",
      'Invalid config at \'channels.telegram.t.progress\': expected one of "compact", "verbose", "off", found "loud"',
      "Invalid config at 'channels.telegram.t.progress_after_ms': must not be negative",
      "Invalid config at 'channels.web.w.stream_after_ms': expected integer, found float",
      "Invalid config at 'channels.web.w.stream_edit_interval_ms': must be 0 (not throttled) or at least 250",
    ]);
  });
});
