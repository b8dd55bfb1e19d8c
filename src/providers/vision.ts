// Which models accept images (media.md §3 `vision`). The AI SDK has no capability flag for this (its
// `supportedUrls` is about URLs a model may fetch itself), so this is baton's own table of model ids known to
// take image input; `vision = true/false` on the provider entry always wins over it.

/** Model ids (the part after any `vendor/` prefix, lower-cased) known to accept image parts. */
const VISION_MODELS: readonly RegExp[] = [
  /^(chatgpt|gpt)-4o/,
  /^gpt-4\.1/,
  /^gpt-4-turbo/,
  /^gpt-5/,
  /^o[34](-|$)/,
  /^claude-3/,
  /^claude-[a-z0-9.-]*-4/,
  /^gemini/,
  /^gemma-?3/,
  /^llava/,
  /^pixtral/,
  /vision/,
  /-vl([-:]|$)/,
];

/** Variants of those families that take no images (audio, speech, embeddings). */
const NOT_VISION: RegExp = /(audio|transcribe|tts|realtime|embed|search)/;

export function knownVisionModel(model: string): boolean {
  const id = (model.split('/').at(-1) ?? model).toLowerCase();
  return !NOT_VISION.test(id) && VISION_MODELS.some((re) => re.test(id));
}

/** An entry's explicit `vision` wins; else the table. Applies to each model of the entry (fallback_models too). */
export function acceptsImages(vision: boolean | undefined, model: string): boolean {
  return vision ?? knownVisionModel(model);
}
