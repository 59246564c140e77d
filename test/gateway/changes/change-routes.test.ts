import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { changeFeedSchema } from '../../../build/contract/change-feed-schema.ts';
import { CHANGE_SCOPE_NOTE } from '../../../gateway/changes/change-feed-envelope.ts';
import { CURSOR_SECRET_MISMATCH_RETRY_SECONDS } from '../../../gateway/routes/change-routes.ts';
import { assertMatchesSchema } from '../../support/contract-validators.ts';
import { startTestGateway, type TestGateway } from '../../support/start-test-gateway.ts';
import type { ChangeFeed } from '../../../build/contract/change-feed-schema.ts';
import type { ApiErrorBody } from '../../../build/contract/error-schema.ts';

// The mini corpus holds events 1-7; 2 (non-live delta), 3 (quarantined a-quar) and 6 (adjacent a-bills)
// are withheld. Visible: 1 alpha 10-05, 4 beta 10-19, 5 gamma 10-26, 7 beta 11-09.
let gateway: TestGateway;
before(async () => {
  gateway = await startTestGateway();
});
after(async () => gateway.close());

async function feed(query: string, key = gateway.keys.commercial): Promise<{ response: Response; body: ChangeFeed }> {
  const response = await gateway.get(`/api/changes?${query}`, { key });
  assert.equal(response.status, 200, `${query}: ${response.status}`);
  const body = (await response.json()) as ChangeFeed;
  assertMatchesSchema('changeFeed', body, query);
  return { response, body };
}

async function walk(query: string, key = gateway.keys.commercial): Promise<ChangeFeed[]> {
  const pages: ChangeFeed[] = [];
  let cursor: string | null = null;
  do {
    const { body } = await feed(cursor === null ? query : `${query}&cursor=${encodeURIComponent(cursor)}`, key);
    pages.push(body);
    cursor = body.nextCursor;
    assert.ok(pages.length <= 10, 'the walk terminates');
  } while (cursor !== null);
  return pages;
}

describe('GET /api/changes', () => {
  it('sends the ChangeFeed envelope in schema key order, privately cached, revision in header and body', async () => {
    const { response, body } = await feed('since=2026-01-01');
    assert.deepEqual(Object.keys(body), Object.keys(changeFeedSchema.properties));
    assert.deepEqual(body.changes.map((change) => change.id), [7, 5, 4, 1]);
    assert.equal(body.count, 4);
    assert.equal(body.since, '2026-01-01');
    assert.equal(body.windowStart, '2026-01-01T00:00:00.000Z');
    assert.equal(body.snapshotMaxId, 7);
    assert.equal(body.hasMore, false);
    assert.equal(body.nextCursor, null);
    assert.equal(body.scopeNote, CHANGE_SCOPE_NOTE);
    assert.equal(body.note, null);
    assert.equal(response.headers.get('x-dataset-revision'), body.datasetRevision);
    assert.match(response.headers.get('cache-control') ?? '', /private/);
    assert.match(response.headers.get('cache-control') ?? '', /no-store/);
  });

  const walks: Array<{ query: string; ids: number[] }> = [
    { query: 'since=2026-01-01&limit=1', ids: [7, 5, 4, 1] },
    { query: 'since=2026-01-01&limit=3', ids: [7, 5, 4, 1] },
    { query: 'since=2026-10-20&limit=1', ids: [7, 5] },
    { query: 'since=2026-10-19&limit=2', ids: [7, 5, 4] },
    { query: 'since=2026-01-01&limit=1&city=beta', ids: [7, 4] },
    { query: 'since=2026-01-01&limit=1&city=alpha', ids: [1] },
    { query: 'since=2027-01-01', ids: [] },
  ];
  for (const { query, ids } of walks) {
    it(`walks every visible event in the window once: ${query}`, async () => {
      const pages = await walk(query);
      assert.deepEqual(pages.flatMap((page) => page.changes.map((change) => change.id)), ids);
      for (const page of pages) assert.equal(page.snapshotMaxId, 7);
      assert.equal(pages.at(-1)?.hasMore, false);
    });
  }

  it('serves a trial key its approved city', async () => {
    const pages = await walk('since=2026-01-01&city=beta&limit=1', gateway.keys.trial);
    assert.deepEqual(pages.flatMap((page) => page.changes.map((change) => change.id)), [7, 4]);
  });

  const refusals: Array<{ name: string; query: string; key?: 'commercial' | 'trial' | 'none'; status: number; code: string }> = [
    { name: 'missing since', query: 'limit=10', status: 400, code: 'INVALID_DATE' },
    { name: 'impossible since', query: 'since=2026-02-30', status: 400, code: 'INVALID_DATE' },
    { name: 'since with a time', query: 'since=2026-10-01T00:00:00Z', status: 400, code: 'INVALID_DATE' },
    { name: 'limit 0', query: 'since=2026-01-01&limit=0', status: 400, code: 'INVALID_LIMIT' },
    { name: 'limit 1001', query: 'since=2026-01-01&limit=1001', status: 400, code: 'INVALID_LIMIT' },
    { name: 'limit abc', query: 'since=2026-01-01&limit=abc', status: 400, code: 'INVALID_LIMIT' },
    { name: 'repeated limit', query: 'since=2026-01-01&limit=5&limit=5', status: 400, code: 'INVALID_LIMIT' },
    { name: 'garbage cursor', query: 'since=2026-01-01&cursor=garbage', status: 400, code: 'INVALID_CURSOR' },
    { name: 'empty cursor', query: 'since=2026-01-01&cursor=', status: 400, code: 'INVALID_CURSOR' },
    { name: 'malformed city', query: 'since=2026-01-01&city=Beta', status: 400, code: 'INVALID_CITY_SLUG' },
    { name: 'malformed city, trial key', query: 'since=2026-01-01&city=Beta', key: 'trial', status: 400, code: 'INVALID_CITY_SLUG' },
    { name: 'a city that is not live', query: 'since=2026-01-01&city=delta', status: 400, code: 'UNKNOWN_CITY' },
    { name: 'an unknown city', query: 'since=2026-01-01&city=zeta', status: 400, code: 'UNKNOWN_CITY' },
    { name: 'trial key without a city', query: 'since=2026-01-01', key: 'trial', status: 400, code: 'API_TRIAL_CITY_REQUIRED' },
    { name: 'trial key outside its cities', query: 'since=2026-01-01&city=gamma', key: 'trial', status: 403, code: 'API_TRIAL_CITY_FORBIDDEN' },
    { name: 'no key', query: 'since=2026-01-01', key: 'none', status: 401, code: 'API_KEY_REQUIRED' },
  ];
  for (const { name, query, key = 'commercial', status, code } of refusals) {
    it(`refuses ${name} with ${status} ${code}`, async () => {
      const response = await gateway.get(`/api/changes?${query}`, key === 'none' ? {} : { key: gateway.keys[key] });
      assert.equal(response.status, status);
      const body = (await response.json()) as ApiErrorBody;
      assert.equal(body.code, code);
      assertMatchesSchema(code.startsWith('API_TRIAL') ? 'trialScopeError' : 'apiError', body, name);
      assert.equal(response.headers.get('x-dataset-revision'), null);
    });
  }

  it('refuses a cursor reused with another since or city, and answers one signed by another gateway\'s secret as a deployment fault', async () => {
    const { body } = await feed('since=2026-01-01&limit=1&city=beta');
    assert.ok(body.nextCursor);
    const cursor = encodeURIComponent(body.nextCursor);
    for (const query of [`since=2026-01-02&limit=1&city=beta`, `since=2026-01-01&limit=1`, `since=2026-01-01&limit=1&city=alpha`]) {
      const response = await gateway.get(`/api/changes?${query}&cursor=${cursor}`, { key: gateway.keys.commercial });
      assert.equal(response.status, 400, query);
      assert.equal(((await response.json()) as ApiErrorBody).code, 'INVALID_CURSOR');
    }
    // The same since and city with another limit is the same walk.
    const resumed = await feed(`since=2026-01-01&limit=5&city=beta&cursor=${cursor}`);
    assert.deepEqual(resumed.body.changes.map((change) => change.id), [4]);
    const other = await startTestGateway({ flags: { cursorSecret: 'a different cursor secret' } });
    try {
      const response = await other.get(`/api/changes?since=2026-01-01&limit=1&city=beta&cursor=${cursor}`, { key: other.keys.commercial });
      assert.equal(response.status, 503);
      assert.equal(response.headers.get('retry-after'), String(CURSOR_SECRET_MISMATCH_RETRY_SECONDS));
      const refusal = (await response.json()) as ApiErrorBody;
      assert.equal(refusal.code, 'CURSOR_SECRET_MISMATCH');
      assertMatchesSchema('apiError', refusal, 'CURSOR_SECRET_MISMATCH');
    } finally {
      await other.close();
    }
  });
});
