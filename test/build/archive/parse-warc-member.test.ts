/** parseWarcMember: header lines and blocks held to their bounds before warcio reads them. */
import * as assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { MAX_HEADER_BLOCK_BYTES, MAX_HEADER_LINE_BYTES } from '../../../build/archive/archive-read-limits.ts';
import { parseWarcMember, warcHeader, WarcMemberError } from '../../../build/archive/parse-warc-member.ts';
import { craftedMember } from '../../support/craft-warc-member.ts';

const ID = '<urn:uuid:00000000-0000-4000-8000-0000000000c1>';
const parse = (head: Parameters<typeof craftedMember>[0]) => parseWarcMember(gunzipSync(craftedMember(head, Buffer.from('<p>page</p>'))));

describe('parseWarcMember', () => {
  it('reads a record\'s WARC head, HTTP head and payload', async () => {
    const record = await parse({ id: ID, url: 'http://page.test/', httpLines: ['Content-Type: text/html', 'Location: /next'] });
    assert.equal(warcHeader(record.warcHeaders, 'warc-record-id'), ID);
    assert.equal(record.httpStatus, 200);
    assert.equal(warcHeader(record.httpHeaders, 'location'), '/next');
    assert.equal(Buffer.from(record.payload).toString(), '<p>page</p>');
  });

  const refused: Array<[string, Parameters<typeof craftedMember>[0], RegExp]> = [
    ['a WARC header line past the line bound', { id: ID, url: 'http://page.test/', warcLines: [`X-Long: ${'a'.repeat(MAX_HEADER_LINE_BYTES)}`] }, /^a line of the WARC head is longer than \d+ bytes$/],
    ['an HTTP header line past the line bound', { id: ID, url: 'http://page.test/', httpLines: [`X-Long: ${'a'.repeat(MAX_HEADER_LINE_BYTES)}`] }, /^a line of the HTTP head is longer than \d+ bytes$/],
    ['a WARC head past the block bound', { id: ID, url: 'http://page.test/', warcLines: Array.from({ length: MAX_HEADER_BLOCK_BYTES / 1000 + 1 }, (_, n) => `X-${n}: ${'b'.repeat(1000)}`) }, /^the WARC header block is longer than \d+ bytes$/],
  ];
  for (const [name, head, problem] of refused) {
    it(`refuses ${name}`, async () => {
      await assert.rejects(parse(head), (error: Error) => error instanceof WarcMemberError && problem.test(error.message));
    });
  }
});
