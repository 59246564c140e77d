/**
 * Blank filter values (issue 42 item 3): a value is taken as sent. Only an empty one (`?status=`) counts as
 * absent, as the OpenAPI document says; a blank `status` (or one with a space around it) is outside the
 * enum, a 400 `INVALID_STATUS_FILTER`, and a blank value of another filter matches nothing, as any unknown
 * value does. Asked of the fast path and of Koa alone, which must answer alike.
 */
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseProgramFilters } from '../../../gateway/programs/parse-program-filters.ts';
import { startFastAndKoaGateways, type FastAndKoaGateways } from '../../support/fast-and-koa-gateways.ts';
import { GENEROUS_LIMITS } from '../../support/start-test-gateway.ts';

describe('parseProgramFilters', () => {
  it('counts only an empty value as absent, and keeps every other value as sent', () => {
    assert.deepEqual(parseProgramFilters({ type: '', status: '' }), {});
    assert.deepEqual(parseProgramFilters({ type: ' ', income: ' low' }), { type: ' ', income: ' low' });
  });

  it('refuses a blank status, and a status with a space, as outside the enum', () => {
    for (const status of [' ', ' available', 'available ', '\t']) {
      assert.throws(() => parseProgramFilters({ status }), { status: 400, code: 'INVALID_STATUS_FILTER' }, JSON.stringify(status));
    }
  });
});

describe('blank filter values over HTTP', () => {
  let gateways: FastAndKoaGateways;
  before(async () => {
    gateways = await startFastAndKoaGateways({ limits: GENEROUS_LIMITS, now: () => Date.parse('2026-11-21T12:00:30.000Z'), cursorSecret: 'blank-filter-cursor-secret-00000001' });
  });
  after(() => gateways.close());

  async function ask(target: string): Promise<{ status: number; body: { code?: string; count?: number } }> {
    const answers = [];
    for (const base of [gateways.fast.url, gateways.koa.url]) {
      const response = await fetch(`${base}${target}`, { headers: { 'X-Api-Key': gateways.keyOf('commercial') ?? '', 'Accept-Encoding': 'identity' } });
      answers.push({ status: response.status, body: (await response.json()) as { code?: string; count?: number } });
    }
    assert.deepEqual(answers[0], answers[1], `${target}: the fast path and Koa answer alike`);
    return answers[0] as { status: number; body: { code?: string; count?: number } };
  }

  it('answers an empty value as no filter', async () => {
    const all = await ask('/api/programs/alpha');
    assert.equal(all.status, 200);
    assert.ok((all.body.count ?? 0) > 0);
    for (const name of ['status', 'type', 'income', 'project', 'category']) {
      assert.deepEqual(await ask(`/api/programs/alpha?${name}=`), all, name);
    }
  });

  it('answers a blank status, or one with its space, 400 INVALID_STATUS_FILTER', async () => {
    for (const target of ['/api/programs/alpha?status=%20', '/api/programs/alpha?status=%20available', '/api/programs/alpha?status=available+']) {
      const answer = await ask(target);
      assert.deepEqual([answer.status, answer.body.code], [400, 'INVALID_STATUS_FILTER'], target);
    }
  });

  it('answers a blank value of another filter with an empty collection, as an unknown value', async () => {
    for (const target of ['/api/programs/alpha?type=%20', '/api/programs/alpha?category=%20', '/api/programs/alpha?type=%20homeowner', '/api/programs/alpha?project=%20']) {
      const answer = await ask(target);
      assert.deepEqual([answer.status, answer.body.count], [200, 0], target);
    }
  });
});
