// media.md §3 keys: `vision` on a provider model, and the [transcription] section.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configCheck } from '../../../src/config/check.ts';
import { configOf, errors, load, MINIMAL, warnings } from './load-helper.ts';

const PROVIDERS = `
[providers.models.openai.main]
model = "gpt-4o"

[providers.models.anthropic.claude]
model = "claude-sonnet-4-5"
`;

describe('vision', () => {
  it('a boolean, undefined when absent (baton table decides then)', () => {
    const r = load(`${MINIMAL}${PROVIDERS}\n[providers.models.custom.local]\nmodel = "m"\nvision = true\n`);
    expect(errors(r)).toEqual([]);
    expect(warnings(r)).toEqual([]);
    const c = configOf(r);
    expect(c.providers['custom.local']?.vision).toBe(true);
    expect(c.providers['openai.main']?.vision).toBeUndefined();
  });

  it('another type is an error naming its TOML path', () => {
    const r = load(`${MINIMAL}\n[providers.models.custom.local]\nmodel = "m"\nvision = "yes"\n`);
    expect(errors(r)).toEqual([
      "Invalid config at 'providers.models.custom.local.vision': expected boolean, found string",
    ]);
  });
});

describe('[transcription]', () => {
  it('absent: off, the model defaults to whisper-1', () => {
    expect(configOf(load(MINIMAL)).transcription).toEqual({ provider: undefined, model: 'whisper-1' });
  });

  it('names a configured provider, with its model', () => {
    const r = load(
      `${MINIMAL}${PROVIDERS}\n[transcription]\nprovider = "openai.main"\nmodel = "gpt-4o-mini-transcribe"\n`,
    );
    expect(errors(r)).toEqual([]);
    expect(configOf(r).transcription).toEqual({ provider: 'openai.main', model: 'gpt-4o-mini-transcribe' });
  });

  it('an unknown provider alias is an error naming transcription.provider; voice notes are then only stored', () => {
    const r = load(`${MINIMAL}${PROVIDERS}\n[transcription]\nprovider = "openai.nope"\n`);
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([
      {
        severity: 'error',
        path: 'transcription.provider',
        message: 'transcription.provider = "openai.nope" but providers.models.openai.nope is not configured',
      },
    ]);
    expect(r.droppedSections).toEqual(['transcription']);
    expect(configOf(r).transcription.provider).toBeUndefined();
    expect(Object.keys(configOf(r).agents)).toEqual(['a']);
  });

  it('an anthropic provider has no /audio/transcriptions: an error', () => {
    const r = load(`${MINIMAL}${PROVIDERS}\n[transcription]\nprovider = "anthropic.claude"\n`);
    expect(errors(r)).toEqual([
      'transcription.provider = "anthropic.claude" is an anthropic provider, which has no OpenAI-compatible /audio/transcriptions endpoint',
    ]);
  });

  it('wrong types and unknown keys name their paths', () => {
    const r = load(`${MINIMAL}\n[transcription]\nprovider = 3\nmodel = true\nlanguage = "de"\n`);
    expect(errors(r)).toEqual([
      "Invalid config at 'transcription.provider': expected string, found integer",
      "Invalid config at 'transcription.model': expected string, found boolean",
    ]);
    expect(warnings(r)).toContain("Unknown config key 'transcription.language' (ignored)");
  });

  it('`baton config check` prints the error and exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-media-keys-'));
    try {
      const path = join(dir, 'baton.toml');
      writeFileSync(path, `${MINIMAL}${PROVIDERS}\n[transcription]\nprovider = "custom.gone"\n`);
      const lines: string[] = [];
      expect(await configCheck(path, {}, (l) => lines.push(l))).toBe(1);
      expect(lines).toContain(
        'transcription.provider = "custom.gone" but providers.models.custom.gone is not configured',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the agents' transcription_provider key stays accepted without effect", () => {
    const r = load(`${MINIMAL}transcription_provider = "openai.whatever"\n`);
    expect(errors(r)).toEqual([]);
    expect(warnings(r)).toEqual([]);
  });
});
