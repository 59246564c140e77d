import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openAppendOnlyLog } from '../../../build/links/append-only-log.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const work = makeTempDir('hra-append-log-');
after(() => rmSync(work, { recursive: true, force: true }));

describe('openAppendOnlyLog', () => {
  it('creates an absent file and its folder with the first line, not at open: a run that appends nothing leaves no file', () => {
    const file = join(work, 'a', 'evidence', 'quote-checks.ndjson');
    const log = openAppendOnlyLog(file);
    log.close();
    assert.equal(existsSync(join(work, 'a')), false, 'nothing created by open and close');
    const used = openAppendOnlyLog(file);
    used.appendRow({ b: 1, a: 'x' });
    used.close();
    assert.equal(readFileSync(file, 'utf8'), '{"b": 1, "a": "x"}\n');
  });

  it('refuses at open, naming the errno, when the file could never be created', () => {
    writeFileSync(join(work, 'plain-file'), '');
    assert.throws(() => openAppendOnlyLog(join(work, 'plain-file', 'evidence', 'x.ndjson')), { code: 'ENOTDIR' });
  });
});
