import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openLinkCheckLog } from '../../../build/links/link-check-log.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const live = { url: 'http://a.test/x', checkedAt: '2026-11-20', outcome: 'live' as const, httpStatus: 200, pageClass: 'program' as const };
const dead = { url: 'http://a.test/y', checkedAt: '2026-11-20', outcome: 'dead' as const, httpStatus: 404 };
// The corpus's hand-written style, which appended lines keep, so a diff shows no change of style.
const liveLine = '{"url": "http://a.test/x", "checkedAt": "2026-11-20", "outcome": "live", "httpStatus": 200, "pageClass": "program"}';
const deadLine = '{"url": "http://a.test/y", "checkedAt": "2026-11-20", "outcome": "dead", "httpStatus": 404}';

describe('openLinkCheckLog', () => {
  it('appends one complete line per attempt after the existing bytes, keys in schema order', () => {
    const root = makeTempDir('hra-log-');
    mkdirSync(join(root, 'evidence'));
    const existing = '{"url": "http://a.test/old", "checkedAt": "2026-11-01", "outcome": "dead", "httpStatus": 410}\n';
    writeFileSync(join(root, 'evidence/link-checks.ndjson'), existing);
    const log = openLinkCheckLog(root);
    log.append({ pageClass: 'program', httpStatus: 200, outcome: 'live', checkedAt: '2026-11-20', url: 'http://a.test/x' });
    log.append(dead);
    log.close();
    assert.equal(readFileSync(join(root, 'evidence/link-checks.ndjson'), 'utf8'), `${existing}${liveLine}\n${deadLine}\n`);
  });

  it('ends a last line that lacks its newline before appending, instead of gluing onto it', () => {
    const root = makeTempDir('hra-log-');
    mkdirSync(join(root, 'evidence'));
    writeFileSync(join(root, 'evidence/link-checks.ndjson'), JSON.stringify(dead));
    const log = openLinkCheckLog(root);
    log.append(live);
    log.close();
    assert.equal(readFileSync(join(root, 'evidence/link-checks.ndjson'), 'utf8'), `${JSON.stringify(dead)}\n${liveLine}\n`);
  });

  it('keeps the archive fields of an archived attempt, after the others', () => {
    const root = makeTempDir('hra-log-');
    const log = openLinkCheckLog(root);
    const id = '<urn:uuid:0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b>';
    log.append({ payloadSha256: 'ab'.repeat(32), warcRecordId: id, ...dead });
    log.close();
    assert.equal(readFileSync(join(root, 'evidence/link-checks.ndjson'), 'utf8'),
      `${deadLine.slice(0, -1)}, "warcRecordId": "${id}", "payloadSha256": "${'ab'.repeat(32)}"}\n`);
  });

  it('creates evidence/ and the file when absent', () => {
    const root = makeTempDir('hra-log-');
    const log = openLinkCheckLog(root);
    log.append(dead);
    log.close();
    assert.equal(readFileSync(join(root, 'evidence/link-checks.ndjson'), 'utf8'), `${deadLine}\n`);
  });
});
