/**
 * htmlVisibleText on markup a browser repairs (issue 39 item 2): the HTML Standard's tree construction moves,
 * closes and reopens elements, and a parser that skips it (a SAX stream, a forgiving tree builder) would read
 * other text in another order. Each expected text is what the Standard's algorithm gives, worked out by hand
 * from its rules; the rows pin it for any parser this module may move to (docs/decisions.md, "The HTML parser").
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlVisibleText } from '../../../build/quotes/html-visible-text.ts';
import { quoteOccursIn } from '../../../build/quotes/quote-occurs-in.ts';

/** A standards-mode page (the doctype matters: in quirks mode a `<table>` does not close an open `<p>`). */
const page = (body: string) => `<!doctype html><html><head><title>Repairs</title></head><body>${body}</body></html>`;

describe('htmlVisibleText: markup the tree construction repairs', () => {
  const rows: Array<{ what: string; html: string; text: string }> = [
    {
      what: 'a table inside a p closes the p in standards mode, so the table is a block of its own',
      html: page('<p>Up to <table><tr><td>$10,000</td></tr></table> a year</p>'),
      // `</p>` with no open p makes an empty p: " a year" is body text after the table.
      text: 'Repairs\nUp to\n$10,000\na year',
    },
    {
      what: 'text stray inside a table is foster-parented before the table',
      html: page('<table><tr><td>Roof repair</td></tr>Grants up to $5,000</table>'),
      text: 'Repairs\nGrants up to $5,000\nRoof repair',
    },
    {
      what: 'a formatting element left open across a block is split by the adoption agency',
      html: page('<b>Up to <p>$10,000</b> for roofs</p>'),
      text: 'Repairs\nUp to\n$10,000 for roofs',
    },
    {
      what: 'paragraphs and list items close when the next one opens',
      html: page('<p>First grant<p>Second grant<ul><li>up to $2,000<li>up to $3,000</ul>'),
      text: 'Repairs\nFirst grant\nSecond grant\nup to $2,000\nup to $3,000',
    },
    {
      what: 'an unclosed page ends with its text read to the end',
      html: '<!doctype html><title>Repairs</title><div><p>Up to <b>$10,000',
      text: 'Repairs\nUp to $10,000',
    },
    {
      what: '<noscript> is raw text while scripting is on: its markup is not elements, and none of it shows',
      html: page('<noscript><p>Up to $99,000</p></noscript><p>Up to $10,000</p>'),
      text: 'Repairs\nUp to $10,000',
    },
    {
      what: 'a comment draws nothing, and `<!-->` is an empty comment, not the start of a long one',
      html: page('<p>Up to <!-- $5,000 -->$10,000<!-->, once</p>'),
      text: 'Repairs\nUp to $10,000, once',
    },
    {
      what: 'CDATA in HTML content is a bogus comment that ends at the first `>`',
      html: page('<p>Up to <![CDATA[$5,000]]>$10,000</p>'),
      text: 'Repairs\nUp to $10,000',
    },
    {
      what: 'CDATA inside SVG is text, drawn',
      html: page('<svg><text><![CDATA[Up to $10,000]]></text></svg>'),
      text: 'Repairs\nUp to $10,000',
    },
    {
      what: 'a script body is raw text: a `</p>` inside a string neither closes nor shows',
      html: page('<p>Up to <script>document.write("</p><p>$5,000")</script>$10,000</p>'),
      text: 'Repairs\nUp to $10,000',
    },
    {
      what: 'the title is escapable raw text: a tag inside it is its text',
      html: '<!doctype html><title>Up to <b>$10,000</b></title><p>Apply.</p>',
      text: 'Up to <b>$10,000</b>\nApply.',
    },
    {
      what: 'named references without a semicolon decode in text as the Standard lists them',
      html: page('<p>Fees &lt 5% &amp up to $10,000 &copy 2026 &notit;</p>'),
      text: 'Repairs\nFees < 5% & up to $10,000 © 2026 ¬it;',
    },
    {
      what: 'an end tag `</br>` is read as a line break',
      html: page('<p>Up to $10,000</br>per home</p>'),
      text: 'Repairs\nUp to $10,000\nper home',
    },
  ];
  for (const row of rows) {
    it(row.what, () => {
      assert.equal(htmlVisibleText(row.html).text, row.text);
    });
  }

  it('foster parenting moves a verdict: the stray text is drawn above the table, so the quote reads whole', () => {
    // A parser without foster parenting keeps source order ("$10,000 Grants up to") and would not find it.
    const { text } = htmlVisibleText(page('<table><tr><td>$10,000</td></tr>Grants up to</table>'));
    assert.equal(quoteOccursIn('Grants up to $10,000', text), true, text);
  });
});
