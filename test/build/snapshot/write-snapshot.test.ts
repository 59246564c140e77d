/**
 * Withheld records are stored apart from served ones (issue 11 item 4): the `programs` table, the only
 * one the detail route reads, holds no quarantined or adjacent-scope row, so a withheld id misses there
 * exactly as an id that never existed; `withheld_programs` keeps them for filters and change detection.
 */
import * as assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { loadCorpus, readCityPrograms } from '../../../build/corpus/load-corpus.ts';
import { createRecordDeriver } from '../../../build/derive/derive-record.ts';
import { liveCitySlugs } from '../../../build/revision/compute-revision.ts';
import { MINI_CORPUS, buildTestSnapshot } from '../../support/start-test-gateway.ts';

describe('writeSnapshot: served and withheld records', () => {
  const db = new Database(buildTestSnapshot(), { readonly: true });
  after(() => db.close());
  const ids = (sql: string) => new Set((db.prepare(sql).all() as Array<{ city: string; id: string }>).map((row) => `${row.city}/${row.id}`));

  it('keeps every withheld record out of the programs table and every served one in it', () => {
    const corpus = loadCorpus(MINI_CORPUS);
    const derive = createRecordDeriver(corpus);
    const served = new Set<string>();
    const withheld = new Map<string, string>();
    for (const city of liveCitySlugs(corpus)) {
      for (const row of readCityPrograms(corpus, city)) {
        const record = derive(city, row);
        if (record.exclusion === 'served') served.add(`${city}/${row.id}`);
        else withheld.set(`${city}/${row.id}`, record.exclusion);
      }
    }
    // The mini corpus withholds one record by quarantine and two by the adjacent-scope rules.
    assert.deepEqual(Object.fromEntries(withheld), { 'alpha/a-bills': 'adjacent', 'alpha/a-quar': 'quarantined', 'gamma/g-adj': 'adjacent' });

    const inPrograms = ids("SELECT city, id FROM programs WHERE city <> 'national'");
    assert.deepEqual([...inPrograms].sort(), [...served].sort());
    for (const key of withheld.keys()) assert.equal(inPrograms.has(key), false, `${key} is in the table the detail route reads`);
    const stored = db.prepare('SELECT city, id, policy FROM withheld_programs ORDER BY city, id').all() as Array<{ city: string; id: string; policy: string }>;
    assert.deepEqual(Object.fromEntries(stored.map((row) => [`${row.city}/${row.id}`, row.policy])), Object.fromEntries(withheld));
  });

  it('keeps each record\'s place among its city\'s records across both tables', () => {
    const places = db.prepare('SELECT city, ord FROM programs UNION ALL SELECT city, ord FROM withheld_programs ORDER BY city, ord').all() as Array<{ city: string; ord: number }>;
    const byCity = new Map<string, number[]>();
    for (const { city, ord } of places) byCity.set(city, [...(byCity.get(city) ?? []), ord]);
    for (const [city, ords] of byCity) assert.deepEqual(ords, ords.map((_, index) => index), city);
  });
});
