// baton's table of models that accept images (media.md §3 `vision`: explicit setting, else this table, else false).
import { describe, expect, it } from 'vitest';
import { acceptsImages, knownVisionModel } from '../../../src/providers/vision.ts';

describe('knownVisionModel', () => {
  it.each([
    'gpt-4o',
    'gpt-4o-mini',
    'chatgpt-4o-latest',
    'gpt-4.1-nano',
    'gpt-4-turbo',
    'gpt-5',
    'gpt-5-mini',
    'o3',
    'o4-mini',
    'claude-3-5-sonnet-20241022',
    'claude-3-haiku-20240307',
    'claude-sonnet-4-5',
    'claude-opus-4-1',
    'gemini-2.0-flash',
    'google/gemini-2.5-pro',
    'openai/gpt-4o',
    'anthropic/claude-3.7-sonnet',
    'llava:13b',
    'llama3.2-vision',
    'qwen2.5-vl-7b',
    'gemma3:4b',
    'pixtral-12b',
  ])('%s accepts images', (model) => {
    expect(knownVisionModel(model)).toBe(true);
  });

  it.each([
    'fake-model',
    'gpt-3.5-turbo',
    'gpt-4',
    'gpt-4o-audio-preview',
    'gpt-4o-mini-transcribe',
    'gpt-4o-realtime-preview',
    'text-embedding-3-small',
    'o1-mini',
    'claude-2.1',
    'llama3.1:8b',
    'mistral-large',
    '',
  ])('%j does not', (model) => {
    expect(knownVisionModel(model)).toBe(false);
  });
});

describe('acceptsImages', () => {
  it('an explicit `vision` wins over the table', () => {
    expect(acceptsImages(true, 'fake-model')).toBe(true);
    expect(acceptsImages(false, 'gpt-4o')).toBe(false);
    expect(acceptsImages(undefined, 'gpt-4o')).toBe(true);
    expect(acceptsImages(undefined, 'fake-model')).toBe(false);
  });
});
