import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { cursorKey, decodeChangeCursor, encodeChangeCursor } from '../../../gateway/changes/change-cursor.ts';
import { readChangePage, scanBudgetFor, type ChangePage, type ChangeReader } from '../../../gateway/changes/read-change-page.ts';
import type { StoredChange } from '../../../gateway/snapshot/open-snapshot.ts';

const DAY = 86_400_000;
const EPOCH = Date.parse('2026-01-01T00:00:00Z');
const CITIES = ['alpha', 'beta', 'gamma'] as const;
const key = cursorKey(Buffer.from('test cursor secret, 32 bytes....'));

/** An in-memory event store with the contract of `Snapshot.changes`; counts the rows it hands out. */
function memoryStore(initial: readonly StoredChange[]) {
  const events = [...initial];
  const store = {
    rowsRead: 0,
    add: (more: readonly StoredChange[]) => events.push(...more),
    maxId: () => events.reduce((max, event) => Math.max(max, event.id), 0),
    read: ((query) => {
      const rows = events
        .filter((event) => event.id <= query.maxId && event.id < query.beforeId && (query.city === undefined || event.city === query.city))
        .sort((a, b) => b.id - a.id)
        .slice(0, query.limit);
      store.rowsRead += rows.length;
      return rows;
    }) as ChangeReader,
  };
  return store;
}

function change(id: number, day: number, options: { visible?: boolean; city?: string; detectedAt?: string } = {}): StoredChange {
  const city = options.city ?? 'alpha';
  const detectedAt = options.detectedAt ?? new Date(EPOCH + day * DAY).toISOString();
  return { id, city, detectedAt, visible: options.visible ?? true, body: Buffer.from(`{"id":${id}}`) };
}

// Renders an instant with a fixed offset, as the corpus may store it.
function withOffset(millis: number, offsetMinutes: number): string {
  if (offsetMinutes === 0) return new Date(millis).toISOString().replace('.000Z', 'Z');
  const local = new Date(millis + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

interface Walk {
  ids: number[];
  pages: ChangePage[];
}

/** Walks the feed from a first page to hasMore false, carrying the position through a real cursor. */
function walk(
  store: ReturnType<typeof memoryStore>,
  options: { since: string; city: string | undefined; limit: number; scanBudget?: number; afterFirstPage?: () => void },
): Walk {
  const sinceMillis = Date.parse(`${options.since}T00:00:00Z`);
  const snapshotMaxId = store.maxId();
  let position = { snapshotMaxId, beforeId: snapshotMaxId + 1 };
  const result: Walk = { ids: [], pages: [] };
  for (let guard = 0; guard <= 10_000; guard += 1) {
    const page = readChangePage(store.read, { ...position, city: options.city, sinceMillis, limit: options.limit, ...(options.scanBudget === undefined ? {} : { scanBudget: options.scanBudget }) });
    result.pages.push(page);
    result.ids.push(...page.changes.map((event) => event.id));
    if (!page.hasMore) return result;
    if (result.pages.length === 1) options.afterFirstPage?.();
    const decoded = decodeChangeCursor(encodeChangeCursor({ ...position, beforeId: page.resumeBeforeId, since: options.since, city: options.city ?? null }, key), [key]);
    assert.ok(decoded.kind === 'position');
    const { cursor } = decoded;
    assert.ok(cursor.beforeId < position.beforeId, 'every page moves the walk forward');
    position = { snapshotMaxId: cursor.snapshotMaxId, beforeId: cursor.beforeId };
  }
  assert.fail('the walk did not terminate');
}

function expected(events: readonly StoredChange[], since: string, city: string | undefined): number[] {
  const sinceMillis = Date.parse(`${since}T00:00:00Z`);
  return events
    .filter((event) => event.visible && Date.parse(event.detectedAt) >= sinceMillis && (city === undefined || event.city === city))
    .map((event) => event.id)
    .sort((a, b) => b - a);
}

// Ids increase with random gaps; detectedAt is random (so often backdated relative to id order) and may
// carry an offset; visibility and city are random.
const eventsArbitrary = (firstId: number, maxLength: number) =>
  fc
    .array(
      fc.record({
        gap: fc.integer({ min: 1, max: 5 }),
        visible: fc.boolean(),
        city: fc.constantFrom(...CITIES),
        minute: fc.integer({ min: 0, max: 60 * 24 * 60 }),
        offset: fc.constantFrom(0, 0, 120, -300, 330),
      }),
      { maxLength },
    )
    .map((rows) => {
      let id = firstId - 1;
      return rows.map((row): StoredChange => {
        id += row.gap;
        return { id, city: row.city, detectedAt: withOffset(EPOCH + row.minute * 60_000, row.offset), visible: row.visible, body: Buffer.from(`{"id":${id}}`) };
      });
    });
const sinceArbitrary = fc.integer({ min: -2, max: 62 }).map((day) => new Date(EPOCH + day * DAY).toISOString().slice(0, 10));
const cityArbitrary = fc.option(fc.constantFrom(...CITIES), { nil: undefined });
const limitArbitrary = fc.integer({ min: 1, max: 50 });
// Small budgets force pages that stop short, including empty pages with hasMore true.
const budgetArbitrary = fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined });

describe('scanBudgetFor', () => {
  const cases = [[1, 1000], [100, 1000], [250, 1000], [251, 1004], [1000, 4000]] as const;
  for (const [limit, budget] of cases) it(`allows ${budget} raw rows for limit ${limit}`, () => assert.equal(scanBudgetFor(limit), budget));
});

describe('readChangePage', () => {
  const since = Date.parse('2026-01-10T00:00:00Z');
  const first = (events: StoredChange[], limit: number, scanBudget?: number, city?: string) => {
    const store = memoryStore(events);
    const max = store.maxId();
    return readChangePage(store.read, { snapshotMaxId: max, beforeId: max + 1, city, sinceMillis: since, limit, ...(scanBudget === undefined ? {} : { scanBudget }) });
  };
  const summary = (page: ChangePage) => ({ ids: page.changes.map((event) => event.id), hasMore: page.hasMore, resume: page.hasMore ? page.resumeBeforeId : null });

  const cases: Array<{ name: string; events: StoredChange[]; limit: number; scanBudget?: number; city?: string; page: ReturnType<typeof summary> }> = [
    { name: 'an empty store is one empty last page', events: [], limit: 10, page: { ids: [], hasMore: false, resume: null } },
    { name: 'newest first', events: [change(1, 10), change(2, 11), change(5, 12)], limit: 10, page: { ids: [5, 2, 1], hasMore: false, resume: null } },
    { name: 'a full page with more behind it', events: [change(1, 10), change(2, 11), change(3, 12)], limit: 2, page: { ids: [3, 2], hasMore: true, resume: 2 } },
    { name: 'a full page that exactly ends the rows', events: [change(1, 10), change(2, 11)], limit: 2, page: { ids: [2, 1], hasMore: false, resume: null } },
    { name: 'withheld rows are skipped', events: [change(1, 10), change(2, 11, { visible: false }), change(3, 12)], limit: 10, page: { ids: [3, 1], hasMore: false, resume: null } },
    { name: 'rows before since are skipped, even among newer ids', events: [change(1, 12), change(2, 3), change(3, 12)], limit: 10, page: { ids: [3, 1], hasMore: false, resume: null } },
    { name: 'the window starts exactly at UTC midnight', events: [change(1, 9, { detectedAt: '2026-01-09T23:59:59.999Z' }), change(2, 9, { detectedAt: '2026-01-10T00:00:00Z' }), change(3, 9, { detectedAt: '2026-01-10T01:00:00+02:00' })], limit: 10, page: { ids: [2], hasMore: false, resume: null } },
    { name: 'a spent budget over withheld rows gives an empty page with more', events: [change(1, 10), change(2, 11, { visible: false }), change(3, 12, { visible: false })], limit: 5, scanBudget: 2, page: { ids: [], hasMore: true, resume: 2 } },
    { name: 'a spent budget that exactly ends the rows is the last page', events: [change(1, 10, { visible: false }), change(2, 11, { visible: false })], limit: 5, scanBudget: 2, page: { ids: [], hasMore: false, resume: null } },
    { name: 'a city filter reads that city only', events: [change(1, 10, { city: 'beta' }), change(2, 11), change(3, 12, { city: 'beta' })], limit: 10, city: 'beta', page: { ids: [3, 1], hasMore: false, resume: null } },
  ];
  for (const { name, events, limit, scanBudget, city, page } of cases) {
    it(name, () => assert.deepEqual(summary(first(events, limit, scanBudget, city)), page));
  }

  it('never examines more raw rows than its budget, however many are withheld', () => {
    const events = Array.from({ length: 5000 }, (_, index) => change(index + 1, 20, { visible: index === 0 }));
    const store = memoryStore(events);
    const page = readChangePage(store.read, { snapshotMaxId: 5000, beforeId: 5001, city: undefined, sinceMillis: since, limit: 10 });
    assert.deepEqual(summary(page), { ids: [], hasMore: true, resume: 5001 - scanBudgetFor(10) });
    assert.equal(page.examined, scanBudgetFor(10));
    // One look-ahead row per batch at most beyond the budget.
    assert.ok(store.rowsRead <= scanBudgetFor(10) + 20, `read ${store.rowsRead} rows`);
  });

  it('walks all pages to exactly the visible events in the window, newest first, once each', () => {
    fc.assert(
      fc.property(eventsArbitrary(1, 80), sinceArbitrary, cityArbitrary, limitArbitrary, budgetArbitrary, (events, since, city, limit, scanBudget) => {
        const store = memoryStore(events);
        const result = walk(store, { since, city, limit, ...(scanBudget === undefined ? {} : { scanBudget }) });
        assert.deepEqual(result.ids, expected(events, since, city));
        for (const page of result.pages) {
          assert.ok(page.changes.length <= limit);
          assert.ok(page.examined <= (scanBudget ?? scanBudgetFor(limit)));
          if (page.hasMore && page.changes.length < limit) assert.equal(page.examined, scanBudget ?? scanBudgetFor(limit), 'a short page only when the budget is spent');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never lets events inserted after the first page into that walk, even backdated; a new first page finds them', () => {
    fc.assert(
      fc.property(
        eventsArbitrary(1, 60),
        fc.array(fc.record({ gap: fc.integer({ min: 1, max: 3 }), visible: fc.boolean(), city: fc.constantFrom(...CITIES), day: fc.integer({ min: -5, max: 60 }) }), { minLength: 1, maxLength: 20 }),
        sinceArbitrary,
        cityArbitrary,
        limitArbitrary,
        budgetArbitrary,
        (events, inserts, since, city, limit, scanBudget) => {
          const base = events.reduce((max, event) => Math.max(max, event.id), 0);
          let id = base;
          const later = inserts.map((row) => {
            id += row.gap;
            return change(id, row.day, { visible: row.visible, city: row.city });
          });
          const store = memoryStore(events);
          const budget = scanBudget === undefined ? {} : { scanBudget };
          const during = walk(store, { since, city, limit, ...budget, afterFirstPage: () => store.add(later) });
          assert.deepEqual(during.ids, expected(events, since, city));
          store.add(during.pages.length === 1 ? later : []);
          const fresh = walk(store, { since, city, limit, ...budget });
          assert.deepEqual(fresh.ids, expected([...events, ...later], since, city));
        },
      ),
      { numRuns: 300 },
    );
  });
});
