// Card HTML (delegate.md §18): response first, Details collapsed, "Result not recorded", cut notes, Copy holding the
// stored original, one parallel card with its blocks, no lifecycle words, everything escaped.
import { describe, expect, it } from 'vitest';
import { parallelHeader } from '../../../src/tools/delegate/delegate-messages.ts';
import { cardFor } from '../../../src/web/transcript/cards.ts';
import { renderCard } from '../../../src/web/transcript/render-cards.ts';

const render = (name: string, args: unknown, result: string | undefined) =>
  renderCard(cardFor({ id: 'c', name, arguments: args }, result)).value;

describe('card HTML', () => {
  it('shows the response before a collapsed Details with provider/model', () => {
    const out = render('delegate', { agent: 'w', prompt: 'p' }, "[Agent 'w' (anthropic/claude)]\nThe answer");
    expect(out.indexOf('The answer')).toBeLessThan(out.indexOf('<summary>Details</summary>'));
    expect(out).toContain('<details class="envelope-details"><summary>Details</summary>');
    expect(out).toContain('<dd class="served">anthropic/claude</dd>');
  });

  it('says "Result not recorded" verbatim when no result was stored', () => {
    expect(render('delegate', { agent: 'w', prompt: 'p' }, undefined)).toContain(
      '<p class="missing">Result not recorded</p>',
    );
  });

  it('renders a parallel call as one card with a block per target and no lifecycle claims', () => {
    const text = `${parallelHeader(2)}\n\n--- a (success=true) ---\nok a\n\n--- b (success=true) ---\nok b`;
    const out = render('delegate', { parallel: ['a', 'b'], prompt: 'p' }, text);
    expect(out.match(/<details class="card delegation"/g)).toHaveLength(1);
    expect(out.match(/class="target-block"/g)).toHaveLength(2);
    expect(out).toContain('<span class="targets">a, b</span>');
    expect(out).not.toMatch(/running|succeeded|success=/i);
  });

  it('notes a cut field and keeps the whole original input for Copy', () => {
    const prompt = 'x\n'.repeat(300);
    const out = render('delegate', { agent: 'w', prompt }, undefined);
    expect(out).toContain('Cut for display: showing 100 of 301 lines');
    const original = /<textarea class="original" hidden readonly>([^<]*)<\/textarea>/.exec(out)?.[1];
    expect(JSON.parse(original!.replaceAll('&quot;', '"'))).toEqual({ agent: 'w', prompt });
  });

  it('escapes every stored value', () => {
    const out = render('delegate', { agent: '<img src=x>', prompt: '<script>' }, '<b>raw</b>');
    expect(out).not.toMatch(/<img|<script|<b>/);
  });
});
