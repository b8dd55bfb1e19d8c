// A multipart/form-data parser for the fakes, lenient the way the platforms' servers are: grammy writes
// `content-disposition:form-data;name="x";filename=photo.jpg` (no spaces, filename unquoted), which Node 20's
// built-in Response.formData() refuses ("Failed to parse body as FormData"). Headers are matched
// case-insensitively, parameters quoted or not; a part's bytes are kept exactly.

export interface MultipartPart {
  name: string;
  /** Present on file parts. */
  filename?: string;
  contentType?: string;
  /** Every header of the part as sent (lower-cased names). */
  headers: Record<string, string>;
  data: Buffer;
}

/** The boundary of a `multipart/form-data; boundary=…` content type, or null. */
export function boundaryOf(contentType: string | undefined): string | null {
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType)) return null;
  const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m ? ((m[1] ?? m[2]) as string) : null;
}

function param(header: string, name: string): string | undefined {
  const m = new RegExp(`;\\s*${name}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]*))`, 'i').exec(header);
  if (!m) return undefined;
  return m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] as string).trim();
}

/** The parts in order; throws on a body that is not multipart with this boundary. */
export function parseMultipart(body: Buffer, boundary: string): MultipartPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: MultipartPart[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) throw new Error('multipart: no boundary in the body');
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString() === '--') return parts; // the closing delimiter
    if (body.subarray(at, at + 2).toString() !== '\r\n') throw new Error('multipart: bad delimiter line');
    at += 2;
    const headEnd = body.indexOf('\r\n\r\n', at);
    if (headEnd < 0) throw new Error('multipart: part without a header end');
    const headers: Record<string, string> = {};
    for (const line of body.subarray(at, headEnd).toString('utf8').split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headEnd + 4);
    if (next < 0) throw new Error('multipart: unterminated part');
    const disposition = headers['content-disposition'] ?? '';
    const name = param(disposition, 'name');
    if (name === undefined) throw new Error('multipart: part without a name');
    const filename = param(disposition, 'filename');
    parts.push({
      name,
      ...(filename !== undefined ? { filename } : {}),
      ...(headers['content-type'] ? { contentType: headers['content-type'] } : {}),
      headers,
      data: Buffer.from(body.subarray(headEnd + 4, next)),
    });
    at = next + 2;
  }
}
