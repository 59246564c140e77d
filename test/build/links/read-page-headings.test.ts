import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { headingsText, readPageHeadings } from '../../../build/links/read-page-headings.ts';

const encode = (text: string) => new TextEncoder().encode(text);
const wholeText = (bytes: Uint8Array, cap: number) => new TextDecoder('utf-8').decode(bytes.subarray(0, cap));
// Words of two- and three-byte characters, so that a cap or the end of a prefix can fall inside one.
const filler = (words: number) => Array.from({ length: words }, (_, index) => `mañana-€${index}`).join(' ');

test('stops decoding a long page once it holds the title and the first h1, which read as in the whole page', () => {
  const page = `<html><head><title>Home Repair &amp; Grants</title></head><body><h1>Repair <b>Grant</b></h1><p>${filler(40_000)}</p><h1>Second</h1></body></html>`;
  const bytes = encode(page);
  const text = headingsText(bytes, 1024 * 1024);
  assert.ok(text.length < 40 * 1024, `decoded ${text.length} characters of ${page.length}`);
  assert.ok(page.startsWith(text));
  assert.deepEqual(readPageHeadings(text), { title: 'Home Repair & Grants', heading: 'Repair Grant' });
  assert.deepEqual(readPageHeadings(text), readPageHeadings(wholeText(bytes, 1024 * 1024)));
});

test('decodes the whole capped body, as before, when the page has no h1', () => {
  const page = `<title>Sin título</title><p>${filler(30_000)}</p><h1>Late heading, past the cap</h1>`;
  const bytes = encode(page);
  const cap = 300_000;
  assert.ok(bytes.byteLength > cap);
  assert.equal(headingsText(bytes, cap), wholeText(bytes, cap));
  assert.equal(readPageHeadings(headingsText(bytes, cap)).heading, '');
  const all = headingsText(bytes, bytes.byteLength);
  assert.equal(all, page);
  assert.equal(readPageHeadings(all).heading, 'Late heading, past the cap');
});

test('reads the whole page when its title comes after the h1, or the h1 end tag closes past the prefix', () => {
  const late = `<h1 class="a">Heading</h1>${filler(5_000)}<title>Late title</title>${filler(5_000)}`;
  assert.deepEqual(readPageHeadings(headingsText(encode(late), 1024 * 1024)), { title: 'Late title', heading: 'Heading' });
  // The prefix tried holds 64 bytes from `</h1`: with this much white space before its `>`, the end tag closes inside it or past it.
  for (let spaces = 50; spaces < 70; spaces++) {
    const page = `<title>Title</title><h1>Heading</h1${' '.repeat(spaces)}>${filler(5_000)}<h1>Second</h1>`;
    const text = headingsText(encode(page), 1024 * 1024);
    assert.deepEqual(readPageHeadings(text), { title: 'Title', heading: 'Heading' }, `${spaces} spaces`);
    assert.deepEqual(readPageHeadings(text), readPageHeadings(page));
  }
});

test('a prefix that ends inside a character holds it back rather than replacing it', () => {
  // The prefix tried ends 64 bytes past `</h1`: 5 of them are `</h1>`, then 19 whole euro signs and two bytes of a 20th.
  const page = `<title>Precio</title><h1>Ayuda</h1>${'€'.repeat(2000)}`;
  const text = headingsText(encode(page), 1024 * 1024);
  assert.ok(text.length < page.length);
  assert.ok(page.startsWith(text), JSON.stringify(text.slice(-3)));
  assert.ok(!text.includes('\uFFFD'));
});
