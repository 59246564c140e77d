/**
 * The outcomes corpus validation allows for a recorded status are the ones the checker can give: every
 * response classifyResponse sees (each status, with and without a challenge header or a challenge page)
 * lands inside outcomesAllowedFor, and the demo evidence follows the rules.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyResponse } from '../../../build/links/classify-response.ts';
import type { FinalResponse } from '../../../build/links/link-check-types.ts';
import { outcomeOfStatus, outcomesAllowedFor } from '../../../build/links/status-outcomes.ts';
import { loadCorpus } from '../../../build/corpus/load-corpus.ts';

const cited = 'http://agency.test/programs/roof-grant';
const page = (title: string, heading: string) => `<html><head><title>${title}</title></head><body><h1>${heading}</h1></body></html>`;
const bodies = [page('Roof Grant', 'Roof Grant'), page('Just a moment...', 'x'), page('Page Not Found', 'x')];

describe('outcomesAllowedFor', () => {
  it('holds every outcome classifyResponse gives, for every status, header and page', () => {
    for (let status = 100; status <= 599; status += 1) {
      const allowed = outcomesAllowedFor(status);
      for (const headers of [{}, { 'cf-mitigated': 'challenge' }]) {
        for (const body of status >= 200 && status < 300 ? bodies : [undefined]) {
          const response: FinalResponse = { status, headers, body, citedUrl: cited, finalUrl: cited };
          const { outcome } = classifyResponse(response);
          assert.ok(allowed.includes(outcome), `${status} ${JSON.stringify(headers)}: ${outcome} not in ${allowed.join(', ')}`);
        }
      }
    }
  });

  it('allows only inconclusive for no response at all', () => {
    assert.deepEqual(outcomesAllowedFor(null), ['inconclusive']);
  });
});

describe('the demo evidence', () => {
  it('records, for every non-2xx status, the outcome the status rules give (the demo models no challenge headers)', () => {
    const wrong = loadCorpus('corpus').linkChecks.filter((attempt) => {
      const byStatus = attempt.httpStatus === null ? undefined : outcomeOfStatus(attempt.httpStatus);
      return byStatus !== undefined && attempt.outcome !== byStatus;
    });
    assert.deepEqual(wrong.map(({ url, outcome, httpStatus }) => `${url} ${outcome} ${httpStatus}`), []);
  });
});
