/** readEvidenceReferences: subjects, what decides, and a line it cannot read named by file and line. */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { EvidenceLineError, readEvidenceReferences, type EvidenceReference } from '../../../build/archive/read-evidence-references.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const work = makeTempDir('hra-evidence-refs-');
let made = 0;
const ID = '<urn:uuid:0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9>';
const SHA = 'ab'.repeat(32);

function corpusWith(links: string, quotes?: string): string {
  const dir = join(work, `c${++made}`);
  mkdirSync(join(dir, 'evidence'), { recursive: true });
  writeFileSync(join(dir, 'evidence/link-checks.ndjson'), links);
  if (quotes !== undefined) writeFileSync(join(dir, 'evidence/quote-checks.ndjson'), quotes);
  return dir;
}

async function all(dir: string): Promise<EvidenceReference[]> {
  const found: EvidenceReference[] = [];
  for await (const reference of readEvidenceReferences(dir)) found.push(reference);
  return found;
}

describe('readEvidenceReferences', () => {
  it('reads both files in order; a link attempt always decides, a quote check only when conclusive; an absent quote file is no lines', async () => {
    const link = (extra: object) => JSON.stringify({ url: 'http://a.test/', checkedAt: '2026-11-20', outcome: 'live', httpStatus: 200, pageClass: 'program', ...extra });
    const quote = (outcome: string) => JSON.stringify({ city: 'alpha', programId: 'p', reviewedAt: '2026-01-01', quoteSha256: SHA, url: 'http://a.test/', checkedAt: '2026-11-20', outcome, warcRecordId: ID, payloadSha256: SHA });
    const refs = await all(corpusWith(`${link({ warcRecordId: ID, payloadSha256: SHA })}\n\n${link({})}\n`, `${quote('found')}\n${quote('inconclusive')}\n`));
    assert.deepEqual(refs.map((ref) => [ref.file, ref.line, ref.decides, ref.recordId ?? null]), [
      ['evidence/link-checks.ndjson', 1, true, ID], ['evidence/link-checks.ndjson', 3, true, null],
      ['evidence/quote-checks.ndjson', 1, true, ID], ['evidence/quote-checks.ndjson', 2, false, ID],
    ]);
    assert.equal(refs[0]!.subject, refs[1]!.subject, 'one URL, one subject');
    assert.notEqual(refs[0]!.subject, refs[2]!.subject, 'a quote check is its own subject');
    assert.equal((await all(corpusWith(`${link({})}\n`))).length, 1);
  });

  const BAD: Array<[string, string, RegExp]> = [
    ['not JSON', '{"url": ', /link-checks\.ndjson:1: not a JSON line/],
    ['no url', '{"checkedAt": "2026-11-20"}', /link-checks\.ndjson:1: not an evidence line \(no url or checkedAt\)$/],
    ['a record id without its digest', JSON.stringify({ url: 'http://a.test/', checkedAt: '2026-11-20', warcRecordId: ID }), /:1: warcRecordId and payloadSha256 come together or not at all$/],
    ['a record id that is none', JSON.stringify({ url: 'http://a.test/', checkedAt: '2026-11-20', warcRecordId: 'urn:x', payloadSha256: SHA }), /:1 \$\.warcRecordId: "urn:x" is not a WARC record id$/],
    ['a digest in capitals', JSON.stringify({ url: 'http://a.test/', checkedAt: '2026-11-20', warcRecordId: ID, payloadSha256: SHA.toUpperCase() }), /:1 \$\.payloadSha256: "AB[AB]+" is not a lowercase hex SHA-256$/],
  ];
  for (const [name, line, message] of BAD) {
    it(`names the file and line of ${name}`, async () => {
      await assert.rejects(all(corpusWith(`${line}\n`)), (error: unknown) => error instanceof EvidenceLineError && message.test(error.message));
    });
  }
});

describe('readEvidenceReferences on evidence files that are not regular files of the corpus', () => {
  const read = async (dir: string) => {
    for await (const reference of readEvidenceReferences(dir)) void reference;
  };
  const cases = [
    { what: 'a FIFO', make: (path: string) => execFileSync('mkfifo', [path]), message: 'not a regular file (a FIFO)' },
    { what: 'a symbolic link to /dev/zero', make: (path: string) => symlinkSync('/dev/zero', path), message: 'a symbolic link to /dev/zero, outside the corpus folder' },
    { what: 'a symbolic link to /etc/passwd', make: (path: string) => symlinkSync('/etc/passwd', path), message: 'a symbolic link to /etc/passwd, outside the corpus folder' },
  ];
  for (const testCase of cases) {
    it(`refuses ${testCase.what} by name, before reading it`, async () => {
      const dir = corpusWith('');
      const path = join(dir, 'evidence/quote-checks.ndjson');
      testCase.make(path);
      await assert.rejects(read(dir), (error: unknown) => {
        assert.ok(error instanceof EvidenceLineError);
        assert.equal(error.message, `${path}: ${testCase.message}`);
        return true;
      });
    });
  }

  it('quotes none of a line that is not JSON', async () => {
    const dir = corpusWith('root:x:0:0:root:/root:/bin/bash\n');
    await assert.rejects(read(dir), (error: unknown) => {
      assert.ok(error instanceof EvidenceLineError);
      assert.doesNotMatch(error.message, /root/);
      assert.match(error.message, /link-checks\.ndjson:1: not a JSON line \(unexpected character\)$/);
      return true;
    });
  });
});
