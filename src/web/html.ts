// HTML built by the gateway: every interpolated value is escaped unless it is already Html (one place, so a page
// cannot forget). Model output, chat text, config values and record fields are untrusted text.

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ESCAPES[c] ?? c);
}

/** Markup that is already safe (built by `html` or by the Markdown renderer). */
export class Html {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

/** Tagged template: `html\`<p>${text}</p>\`` escapes `text`; nested `html` and arrays of it are kept. */
export function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  let out = strings[0] ?? '';
  for (let i = 0; i < parts.length; i++) out += render(parts[i]) + (strings[i + 1] ?? '');
  return new Html(out);
}

/** Trusted markup from a renderer that escapes on its own (e.g. markdown-it with html disabled). */
export const trustedHtml = (value: string): Html => new Html(value);
