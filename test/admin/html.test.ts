import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml, html, trusted } from '../../src/admin/html.js';

/** What a browser would show for escaped text: the inverse of escapeHtml. */
const decodeEntities = (text: string) =>
  text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');

describe('the html template helper', () => {
  it('escapes every interpolated string, so no text can open a tag or leave an attribute', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const out = html`<p title="${text}">${text}</p>`.value;
        expect(out).toBe(`<p title="${escapeHtml(text)}">${escapeHtml(text)}</p>`);
        expect(escapeHtml(text)).not.toMatch(/[<>"']/);
        expect(decodeEntities(escapeHtml(text))).toBe(text);
      }),
    );
  });

  it('keeps nested templates and trusted markup as they are, and escapes items of lists', () => {
    const rows = ['<a>', 'b&c'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${rows}</ul>${trusted('<hr>')}`.value).toBe(
      '<ul><li>&lt;a&gt;</li><li>b&amp;c</li></ul><hr>',
    );
  });

  it('renders null, undefined and false as nothing and numbers as text', () => {
    expect(html`[${null}${undefined}${false}${0}${42}]`.value).toBe('[042]');
  });
});
