/**
 * The program envelopes' `docs` and `openapi` links (spec 4.3; build/contract/envelope-links.ts): present on
 * every envelope of a build whose manifest names a public base URL, pointing at routes this gateway serves;
 * absent from every envelope of a build that names none; and bound by the revision.
 */
import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { envelopeLinks } from '../../../build/contract/envelope-links.ts';
import type { ProgramList } from '../../../build/contract/program-list-schema.ts';
import { loadCorpus } from '../../../build/corpus/load-corpus.ts';
import { computeRevision } from '../../../build/revision/compute-revision.ts';
import { assertMatchesSchema } from '../../support/contract-validators.ts';
import { copyCorpusWith } from '../../support/copy-corpus-with.ts';
import { GENEROUS_LIMITS, MINI_CORPUS, startTestGateway, type TestGateway } from '../../support/start-test-gateway.ts';

/** Every kind of envelope: unfiltered, filtered by the gateway, the default city, national, the sample. */
const ENVELOPE_PATHS = ['/api/programs/alpha', '/api/programs/alpha?type=grant', '/api/programs/alpha?project=nothing-matches-this', '/api/programs', '/api/programs/national', '/api/programs/national?status=available', '/api/sample'];

async function envelopes(gateway: TestGateway): Promise<Array<{ path: string; body: ProgramList }>> {
  const found = [];
  for (const path of ENVELOPE_PATHS) {
    const response = await gateway.get(path, { key: gateway.keys.commercial });
    assert.equal(response.status, 200, path);
    const body = await response.json() as ProgramList;
    assertMatchesSchema('programList', body, path);
    found.push({ path, body });
  }
  return found;
}

describe('envelope links', () => {
  const base = 'https://homerepair.example.test/v';
  let corpus: string;
  let linked: TestGateway;
  let unlinked: TestGateway;
  before(async () => {
    corpus = copyCorpusWith({ publicBaseUrl: base });
    linked = await startTestGateway({ corpus, limits: GENEROUS_LIMITS });
    unlinked = await startTestGateway({ corpus: MINI_CORPUS, limits: GENEROUS_LIMITS });
  });
  after(async () => {
    await linked.close();
    await unlinked.close();
    rmSync(corpus, { recursive: true, force: true });
  });

  it('every envelope of a build with a public base URL links its docs and OpenAPI document', async () => {
    const expected = envelopeLinks(base);
    assert.deepEqual(expected, { docs: `${base}/docs`, openapi: `${base}/openapi.json` });
    for (const { path, body } of await envelopes(linked)) {
      assert.equal(body.docs, expected.docs, path);
      assert.equal(body.openapi, expected.openapi, path);
    }
  });

  it('links what the gateway serves: the HTML reference and the OpenAPI document', async () => {
    // The deployment is reached behind the prefix `/v` (a proxy strips it); the test calls the gateway directly.
    const links = envelopeLinks(base);
    const docs = await linked.get(new URL(links.docs).pathname.replace(/^\/v/, ''));
    assert.equal(docs.status, 200);
    assert.match(docs.headers.get('content-type') ?? '', /^text\/html/);
    const openapi = await linked.get(new URL(links.openapi).pathname.replace(/^\/v/, ''));
    assert.equal(openapi.status, 200);
    assert.match(((await openapi.json()) as { openapi: string }).openapi, /^3\.1\./);
  });

  it('no envelope of a build without one carries either member', async () => {
    for (const { path, body } of await envelopes(unlinked)) {
      assert.equal('docs' in body, false, path);
      assert.equal('openapi' in body, false, path);
    }
  });

  it('refuses a base URL that is not a plain http(s) URL, naming the manifest field', () => {
    for (const publicBaseUrl of ['ftp://homerepair.example.test', 'https://homerepair.example.test/?q=1', 'https://homerepair.example.test/#top', 'homerepair.example.test']) {
      const dir = copyCorpusWith({ publicBaseUrl });
      try {
        assert.throws(() => loadCorpus(dir), (error: Error) => /manifest\.json/.test(error.message) && /publicBaseUrl/.test(error.message), publicBaseUrl);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('the revision binds the base URL', () => {
    const other = copyCorpusWith({ publicBaseUrl: 'https://other.example.test' });
    try {
      const revisions = [MINI_CORPUS, corpus, other].map((dir) => computeRevision(loadCorpus(dir)).revision);
      assert.equal(new Set(revisions).size, 3, revisions.join(' '));
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
