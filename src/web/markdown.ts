// Chat Markdown → safe HTML for the web chat: markdown-it with raw HTML off, links only to http(s)/mailto, no
// images (remote loads), links opened without referrer. Everything else stays text.
import { createRequire } from 'node:module';
import type MarkdownItType from 'markdown-it';
import { escapeHtml } from './html.ts';

// markdown-it (and its entities, linkify and punycode tables) loads with the first message rendered, not with
// every process that imports this module (channel-adapters.ts does, for any start): a web-only idle start
// 119.7–121.0 → 118.0–119.6 MB resident, heap 31.5 → 30.5 MB (six starts each). `require` keeps rendering
// synchronous; nothing else loads markdown-it, so there is one copy.
const load = createRequire(import.meta.url);

const SAFE_LINK = /^(https?:|mailto:)/i;

function createRenderer(): InstanceType<typeof MarkdownItType> {
  const MarkdownIt = load('markdown-it') as typeof MarkdownItType;
  const md = new MarkdownIt({ html: false, linkify: true, breaks: true });
  // markdown-it's default already refuses javascript:/vbscript:/file:/data:; this is an allow-list instead.
  md.validateLink = (url) => SAFE_LINK.test(url.trim());
  md.disable(['image']);
  const base = md.renderer.rules.link_open;
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    tokens[idx]?.attrSet('rel', 'noopener noreferrer nofollow');
    tokens[idx]?.attrSet('target', '_blank');
    return base ? base(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
  };
  return md;
}

let renderer: InstanceType<typeof MarkdownItType> | undefined;

/** Model or chat Markdown as HTML that is safe to insert into the page. */
export function renderChatMarkdown(text: string): string {
  renderer ??= createRenderer();
  return renderer.render(text);
}

/** Text shown as written (an approval card's plain form), line breaks kept by CSS. */
export function renderChatPlain(text: string): string {
  return `<p class="plain">${escapeHtml(text)}</p>`;
}
