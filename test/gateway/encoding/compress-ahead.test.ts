/**
 * The bodies a shared cache may store are compressed before they are served: the first request for br after
 * start and after a swap gets br (a cache stores that first answer), in a real gateway swapping between two
 * published revisions.
 */
import * as assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { pointCurrentAt } from '../../../build/snapshot/publish-snapshot.ts';
import { ROUTE_TABLE } from '../../../gateway/routes/route-table.ts';
import { sharedCacheMayStore } from '../../../gateway/vocabulary/success-caching.ts';
import { GENEROUS_LIMITS, startTestGateway, type TestGateway } from '../../support/start-test-gateway.ts';
import { publishTwoRevisions, type TwoRevisions } from '../operations/serve-process.ts';

const SHARED_PATHS = ROUTE_TABLE.filter((route) => route.access === 'public' && sharedCacheMayStore(route.caching) && !route.path.includes(':')).map((route) => route.path);

function head(url: string, path: string, acceptEncoding: string): Promise<{ status: number; coding: string | undefined; vary: string | undefined; revision: string | undefined }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: hostname, port, path, headers: { 'Accept-Encoding': acceptEncoding }, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, coding: response.headers['content-encoding'], vary: response.headers.vary, revision: response.headers['x-dataset-revision'] as string | undefined }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('compressing ahead of use', () => {
  let revisions: TwoRevisions;
  let gateway: TestGateway;
  before(async () => {
    revisions = await publishTwoRevisions();
    gateway = await startTestGateway({ limits: GENEROUS_LIMITS, flags: { dataset: revisions.dataset } });
  });
  after(async () => {
    await gateway?.close();
    revisions?.remove();
  });

  /** Asks each shared path once per coding, first thing, and says which answers were not in that coding. */
  const firstAnswers = async (revision: string) => {
    const plain: string[] = [];
    const compressible = new Set<string>();
    for (const path of SHARED_PATHS) {
      for (const coding of ['br', 'gzip']) {
        const answer = await head(gateway.url, path, coding);
        // A body too short to compress (the mini corpus's report) goes as it is, without Vary.
        if (answer.status !== 200 || answer.vary !== 'Accept-Encoding') continue;
        compressible.add(path);
        assert.equal(answer.revision, revision, path);
        if (answer.coding !== coding) plain.push(`${path} asked in ${coding}: ${answer.coding ?? 'identity'}`);
      }
    }
    assert.ok(['/api/sample', '/openapi.json', '/docs'].every((path) => compressible.has(path)), [...compressible].join(', '));
    return plain;
  };

  it('answers the first br and gzip requests in br and gzip at start and after a swap', async () => {
    assert.ok(SHARED_PATHS.length >= 5, SHARED_PATHS.join(', '));
    assert.deepEqual(await firstAnswers(revisions.a.revision), [], 'at start');
    pointCurrentAt(revisions.out, revisions.b.name);
    assert.equal((await gateway.gateway.reload('test')).status, 'swapped');
    assert.deepEqual(await firstAnswers(revisions.b.revision), [], 'after the swap');
  });
});
