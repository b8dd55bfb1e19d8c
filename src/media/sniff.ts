// What a file's bytes say it is. Only an allowlist of image formats is recognised, by their signatures: a
// claimed MIME type or an extension never makes bytes an image part for the model or a photo on a platform.

const SIGNATURES: readonly { mime: string; test: (b: Uint8Array) => boolean }[] = [
  { mime: 'image/png', test: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { mime: 'image/jpeg', test: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { mime: 'image/gif', test: (b) => startsWith(b, [0x47, 0x49, 0x46, 0x38]) },
  {
    mime: 'image/webp',
    test: (b) => startsWith(b, [0x52, 0x49, 0x46, 0x46]) && ascii(b, 8, 4) === 'WEBP',
  },
];

function startsWith(b: Uint8Array, sig: readonly number[]): boolean {
  return b.length >= sig.length && sig.every((v, i) => b[i] === v);
}

function ascii(b: Uint8Array, at: number, n: number): string {
  return b.length < at + n ? '' : String.fromCharCode(...b.subarray(at, at + n));
}

/** The image MIME type these bytes are, or null when they are not one of the known image formats. */
export function sniffImage(bytes: Uint8Array): string | null {
  return SIGNATURES.find((s) => s.test(bytes))?.mime ?? null;
}

/** A few common types by extension, for what is sent as a document; anything else is octet-stream. */
const BY_EXTENSION: Record<string, string> = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  zip: 'application/zip',
};

export function mimeOf(name: string, bytes: Uint8Array): string {
  const image = sniffImage(bytes);
  if (image) return image;
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  return BY_EXTENSION[ext] ?? 'application/octet-stream';
}
