// Chat Markdown → safe HTML for the web chat: markdown-it with raw HTML off, links only to http(s)/mailto, no
// images (remote loads), links opened without referrer. Everything else stays text.
import MarkdownIt from 'markdown-it';
import { escapeHtml } from './html.ts';

const SAFE_LINK = /^(https?:|mailto:)/i;

function createRenderer() {
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

const renderer = createRenderer();

/** Model or chat Markdown as HTML that is safe to insert into the page. */
export function renderChatMarkdown(text: string): string {
  return renderer.render(text);
}

/** Text shown as written (an approval card's plain form), line breaks kept by CSS. */
export function renderChatPlain(text: string): string {
  return `<p class="plain">${escapeHtml(text)}</p>`;
}
