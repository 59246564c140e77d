import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { readLiveCitySlugs } from '../../../gateway/keys/live-city-slugs.ts';
import { buildTestSnapshot } from '../../support/start-test-gateway.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

function scratchFile(name: string): string {
  return join(makeTempDir('hra-dataset-'), name);
}

describe('readLiveCitySlugs', () => {
  it('reads the live cities of a snapshot built from a real corpus, not its pending ones', () => {
    // The mini corpus lists alpha, beta and gamma as live and delta as pending.
    assert.deepEqual([...readLiveCitySlugs(buildTestSnapshot())].sort(), ['alpha', 'beta', 'gamma']);
  });

  const unreadable: ReadonlyArray<[string, () => string, RegExp]> = [
    ['a missing file', () => join(tmpdir(), 'hra-no-such-dataset.sqlite'), /cannot open snapshot/],
    ['a SQLite file that is not a snapshot', () => {
      const path = scratchFile('other.sqlite');
      const db = new Database(path);
      db.exec("CREATE TABLE cities (slug TEXT, status TEXT); INSERT INTO cities VALUES ('detroit','live');");
      db.close();
      return path;
    }, /refused/],
    ['a file that is not SQLite', () => {
      const path = scratchFile('x.sqlite');
      writeFileSync(path, 'y'.repeat(2048));
      return path;
    }, /snapshot .* refused|cannot open snapshot/],
  ];
  for (const [name, path, message] of unreadable) {
    it(`names the file for ${name}`, () => {
      const file = path();
      assert.throws(() => readLiveCitySlugs(file), (error: unknown) => {
        assert.ok(error instanceof Error);
        assert.match(error.message, message);
        assert.ok(error.message.includes(file));
        return true;
      });
    });
  }
});
