/**
 * htmlVisibleText on generated pages: footnote marks after amounts (issue 31 item 7) and text a browser
 * does not draw (item 8), each checked through quoteOccursIn as the weekly run matches quotes.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlVisibleText } from '../../../build/quotes/html-visible-text.ts';
import { quoteOccursIn } from '../../../build/quotes/quote-occurs-in.ts';

const page = (body: string) => `<!doctype html><html><head><title>Home Repair</title></head><body>${body}<p>Call 311.</p></body></html>`;
const OLD = 'grants of up to $7,500 for roofs';

describe('htmlVisibleText: superscripts', () => {
  const rows: Array<{ what: string; body: string; quote: string; found: boolean }> = [
    { what: 'a footnote mark after an amount is set apart', body: '<p>Homeowners may receive up to $25,000<sup>1</sup> in repairs.</p>', quote: 'up to $25,000', found: true },
    { what: 'the amount and its mark never read as one number', body: '<p>up to $25,000<sup>1</sup> in repairs</p>', quote: '$25,0001', found: false },
    { what: 'a footnote link inside the sup', body: '<p>up to <b>$25,000</b><sup><a href="#fn2">2</a></sup> in repairs</p>', quote: 'up to $25,000', found: true },
    { what: 'a raised ordinal stays attached', body: '<p>There is a $5.00 late fee if the payment is after the 5<sup>th</sup>.</p>', quote: 'after the 5th.', found: true },
    { what: 'a sup after a word is not spaced', body: '<p>Repairs<sup>1</sup> are free.</p>', quote: 'Repairs1 are free', found: true },
  ];
  for (const row of rows) {
    it(`${row.what}: ${row.found ? 'found' : 'not found'}`, () => {
      const { text } = htmlVisibleText(page(row.body));
      assert.equal(quoteOccursIn(row.quote, text), row.found, text);
    });
  }

  it('reads the mark as a separate token', () => {
    assert.equal(htmlVisibleText('<p>up to $25,000<sup>1</sup> in repairs</p>').text, 'up to $25,000 1 in repairs');
  });
});

describe('htmlVisibleText: text a browser does not draw', () => {
  const hidden: Array<[string, string]> = [
    ['inline display:none', `<div style="display:none">${OLD}</div>`],
    ['display: none !important, spaced and uppercase', `<span style="color: red; DISPLAY : NONE !important">${OLD}</span>`],
    ['display:none on a form wrapper', `<form><div style="display:none"><label>Leave blank: ${OLD}</label><input name="hp"></div></form>`],
    ['visibility:hidden', `<p style="visibility:hidden">${OLD}</p>`],
    ['visibility:collapse', `<p style="visibility: collapse">${OLD}</p>`],
    ['a closed <dialog>', `<dialog><p>${OLD}</p></dialog>`],
    ['an SVG <title>', `<svg viewBox="0 0 10 10"><title>${OLD}</title><rect width="10" height="10"/></svg>`],
    ['an SVG <desc>', `<svg><desc>${OLD}</desc></svg>`],
    ['a honeypot moved far off-screen (Mailchimp idiom)', `<div style="position: absolute; left: -5000px;" aria-hidden="true"><input name="b_x" tabindex="-1">${OLD}</div>`],
    ['a honeypot at left:-9999px', `<div style="position:absolute;left:-9999px">${OLD}</div>`],
    ['a honeypot at top:-999em', `<div style="position:fixed; top:-999em">${OLD}</div>`],
    ['the visually-hidden clip idiom', `<span style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)">${OLD}</span>`],
    ['the hidden attribute', `<div hidden>${OLD}</div>`],
    ['a zero-height box whose overflow is hidden', `<div style="height:0; overflow:hidden">${OLD}</div>`],
    ['a collapsed panel (max-height:0)', `<div style="max-height: 0px; overflow: hidden; transition: max-height .3s">${OLD}</div>`],
  ];
  for (const [what, body] of hidden) {
    it(`${what}: left out`, () => {
      const { text } = htmlVisibleText(page(`<p>Intro.</p>${body}`));
      assert.equal(quoteOccursIn(OLD, text), false, text);
      assert.ok(text.includes('Call 311.'), 'the rest of the page is read');
    });
  }

  const shown: Array<[string, string]> = [
    ['aria-hidden alone (usually on screen)', `<p aria-hidden="true">${OLD}</p>`],
    ['an open <dialog>', `<dialog open><p>${OLD}</p></dialog>`],
    ['SVG <text>, which is drawn', `<svg><text x="0" y="10">${OLD}</text></svg>`],
    ['a small nudge (left:-20px)', `<div style="position:relative;left:-20px">${OLD}</div>`],
    ['a large negative offset without positioning', `<div style="left:-9999px">${OLD}</div>`],
    ['a negative percentage (not readable as a length)', `<div style="position:absolute;left:-50%">${OLD}</div>`],
    ['visibility:visible inside visibility:hidden', `<div style="visibility:hidden">Old: $9,000<p style="visibility:visible">${OLD}</p></div>`],
    ['the hidden attribute overridden by an inline display', `<div hidden style="display:block">${OLD}</div>`],
    ['display:none inside a comment of the style', `<div style="/* display:none */ color: red">${OLD}</div>`],
    ['a later display wins over display:none', `<div style="display:none; display:block">${OLD}</div>`],
    ['a zero-height box whose overflow shows', `<div style="height:0">${OLD}</div>`],
    ['an aspect-ratio box (height 0, padding, overflow hidden)', `<div style="height:0;padding-bottom:56.25%;overflow:hidden">${OLD}</div>`],
    ['opacity:0 (not read: often a fade-in a script completes)', `<div style="opacity:0">${OLD}</div>`],
  ];
  for (const [what, body] of shown) {
    it(`${what}: read`, () => {
      const { text } = htmlVisibleText(page(body));
      assert.equal(quoteOccursIn(OLD, text), true, text);
    });
  }

  it('text hidden by visibility beside visible text in the same element', () => {
    const { text } = htmlVisibleText('<p>Up to <span style="visibility:hidden">$7,500 old</span>$10,000 for roofs.</p>');
    assert.equal(text, 'Up to $10,000 for roofs.');
  });

  it('an !important display:none is not undone by a later plain declaration', () => {
    const { text } = htmlVisibleText(page(`<div style="display:none !important; display:block">${OLD}</div>`));
    assert.equal(quoteOccursIn(OLD, text), false, text);
  });
});

describe('htmlVisibleText: text a page style sheet hides (issue 40 item 7)', () => {
  const styled = (css: string, body: string) => `<!doctype html><html><head><title>Home Repair</title><style>${css}</style></head><body><p>Intro.</p>${body}<p>Call 311.</p></body></html>`;
  const hidden: Array<[string, string, string]> = [
    ['a class setting display:none', '.old-offer { color: red; display: none }', `<div class="panel old-offer">${OLD}</div>`],
    ['an id setting visibility:hidden', '#menu{visibility:hidden}', `<nav id="menu"><p>${OLD}</p></nav>`],
    ['an element selector', 'aside { display:none; }', `<aside>${OLD}</aside>`],
    ['a selector list with a compound selector', 'h2, div.legacy.note { display: none }', `<div class="note legacy">${OLD}</div>`],
    ['a class moving the box off-screen', '.offer { position: absolute; left: -10000px }', `<p class="offer">${OLD}</p>`],
    ['a class defined in the body\'s own <style>', 'p{}', `<style>.gone{display:none}</style><p class="gone">${OLD}</p>`],
    ['the sr-only class, whose rule is in a style sheet not fetched', '', `<span class="sr-only">${OLD}</span>`],
    ['the visually-hidden class', '', `<span class="visually-hidden">${OLD}</span>`],
    ['the screen-reader-text class (WordPress)', '', `<span class="screen-reader-text">${OLD}</span>`],
  ];
  for (const [what, css, body] of hidden) {
    it(`${what}: left out`, () => {
      const { text } = htmlVisibleText(styled(css, body));
      assert.equal(quoteOccursIn(OLD, text), false, text);
      assert.ok(text.includes('Call 311.'), 'the rest of the page is read');
    });
  }

  const shown: Array<[string, string, string]> = [
    ['hidden="until-found" (find-in-page shows it)', '', `<div hidden="until-found">${OLD}</div>`],
    ['a rule inside @media print', '@media print { .offer { display: none } }', `<p class="offer">${OLD}</p>`],
    ['a rule inside @media for narrow screens', '@media (max-width: 600px) { .offer { display: none } } .x{color:red}', `<p class="offer">${OLD}</p>`],
    ['a descendant selector (not read: it may not apply)', '.closed .offer { display: none }', `<p class="offer">${OLD}</p>`],
    ['a pseudo-class (not read)', '.offer:hover { display: none }', `<p class="offer">${OLD}</p>`],
    ['a more specific rule showing it again', '.offer { display: none } p.offer { display: block }', `<p class="offer">${OLD}</p>`],
    ['a later rule of the same specificity showing it again', '.offer { display: none } .shown { display: block }', `<p class="offer shown">${OLD}</p>`],
    ['an inline style over the class', '.offer { display: none }', `<p class="offer" style="display:block">${OLD}</p>`],
    ['a class on another element', '.gone { display: none }', `<p class="gone-not">${OLD}</p>`],
    ['display:none inside a string of another rule', '.a::before { content: "}.offer{display:none}" } .b{color:red}', `<p class="offer">${OLD}</p>`],
    ['an aspect-ratio box from a class (padding shows the content)', '.ratio{height:0;overflow:hidden;padding-bottom:56%}', `<div class="ratio">${OLD}</div>`],
  ];
  for (const [what, css, body] of shown) {
    it(`${what}: read`, () => {
      const { text } = htmlVisibleText(styled(css, body));
      assert.equal(quoteOccursIn(OLD, text), true, text);
    });
  }
});
