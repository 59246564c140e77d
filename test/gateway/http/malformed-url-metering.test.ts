/**
 * A 400 `MALFORMED_URL` is metered (issue 42 item 3): spec 7 gives every 400 the rate-limit headers, and a
 * target that does not decode is refused before any route is chosen, so it is metered per client address,
 * as a path no route matches is, whatever key it carries. An address whose window is spent gets its 429.
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiErrorBody } from '../../../build/contract/error-schema.ts';
import { startTestGateway, type TestGateway } from '../../support/start-test-gateway.ts';

const PUBLIC_PER_MINUTE = 3;
const LIMITS = {
  tiers: { trial: { perMinute: 1_000, perDay: 10_000 }, nonprofit: { perMinute: 1_000, perDay: 10_000 }, commercial: { perMinute: 1_000, perDay: 10_000 } },
  public: { perMinute: PUBLIC_PER_MINUTE },
};

describe('400 MALFORMED_URL metering', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway({ limits: LIMITS });
  });
  after(() => gateway.close());

  it('carries the rate-limit headers of the client address\'s window, with a valid key too, until the window is spent', async () => {
    const targets = ['/api/cities?status=%FF', '/api/programs/alpha?type=%ZZ', '/api/programs/%E0%A4%A'];
    for (const [index, target] of targets.entries()) {
      const response = await gateway.get(target, { key: gateway.keys.commercial });
      const body = (await response.json()) as ApiErrorBody;
      assert.deepEqual([response.status, body.code], [400, 'MALFORMED_URL'], target);
      assert.equal(response.headers.get('x-ratelimit-limit'), String(PUBLIC_PER_MINUTE), `${target}: the address's limit, not the key's`);
      assert.equal(response.headers.get('x-ratelimit-remaining'), String(PUBLIC_PER_MINUTE - 1 - index), target);
      assert.match(response.headers.get('x-ratelimit-reset') ?? '', /^\d+$/, target);
      assert.match(response.headers.get('ratelimit') ?? '', /^"minute";r=\d+;t=\d+$/, target);
      assert.equal(response.headers.get('vary'), null, target);
      assert.equal(response.headers.get('x-dataset-revision'), null, target);
    }
    const spent = await gateway.get('/api/cities?status=%FF', { key: gateway.keys.commercial });
    assert.equal(spent.status, 429);
    assert.equal(((await spent.json()) as ApiErrorBody).code, 'RATE_LIMITED');
  });
});
