import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { deriveFreshness, EVIDENCE_MAX_CHARS, type FreshnessInputs } from '../../../build/derive/derive-freshness.ts';
import type { LinkCheck, QuoteCheck, SourceReview } from '../../../build/corpus/corpus-types.ts';
import { quoteDigest } from '../../../build/derive/quote-digest.ts';

const URL = 'https://example.gov/roof-grant';
const AS_OF = '2026-06-30';

function check(outcome: LinkCheck['outcome'], checkedAt = '2026-06-01', pageClass?: 'program' | 'agency'): LinkCheck {
  const base = { url: URL, checkedAt, outcome, httpStatus: outcome === 'live' ? 200 : null };
  return pageClass === undefined ? base : { ...base, pageClass };
}
const live = (pageClass: 'program' | 'agency' = 'program', checkedAt = '2026-06-01') => check('live', checkedAt, pageClass);

function review(over: Partial<SourceReview> = {}): SourceReview {
  return { city: 'detroit', programId: 'roof-1', reviewedAt: '2026-06-15', kind: 'identity', identityMatch: true, ...over };
}
const amountReview = (over: Partial<SourceReview> = {}) =>
  review({ kind: 'amount', amountQuote: 'Eligible homeowners may receive up to $15,000 for roof replacement.', quoteFoundInPage: true, ...over });

function inputs(over: Partial<FreshnessInputs> = {}): FreshnessInputs {
  return { url: URL, maxAmount: 15000, isFederalCanonical: false, linkChecks: [live()], reviews: [], quoteChecks: [], asOf: AS_OF, ...over };
}

describe('deriveFreshness confidence decision table', () => {
  const rows: Array<[string, Partial<FreshnessInputs>, string]> = [
    ['1: federal canonical wins even over a dead link', { isFederalCanonical: true, linkChecks: [check('dead')] }, 'federal-canonical'],
    ['1: federal canonical wins over a source-verified review', { isFederalCanonical: true, reviews: [amountReview()] }, 'federal-canonical'],
    ['2: dead link', { linkChecks: [check('dead')], reviews: [amountReview()] }, 'unverified'],
    ['2: bot-blocked link', { linkChecks: [check('bot-blocked')] }, 'unverified'],
    ['2: inconclusive attempt', { linkChecks: [check('inconclusive')], reviews: [review()] }, 'unverified'],
    ['2: never checked', { linkChecks: [] }, 'unverified'],
    ['2: null url ignores any checks', { url: null }, 'unverified'],
    ['3: fresh amount review, bound and found in page', { reviews: [amountReview()] }, 'source-verified'],
    ['3 fails, 4: quote not found in page', { reviews: [amountReview({ quoteFoundInPage: false })] }, 'model-identity-reviewed'],
    ['3 fails, 4: amount differs from quote', { maxAmount: 20000, reviews: [amountReview()] }, 'model-identity-reviewed'],
    ['4: fresh identity-only review', { reviews: [review()] }, 'model-identity-reviewed'],
    ['3/4 fail on stale review (exactly 90 days), 5', { reviews: [amountReview({ reviewedAt: '2026-04-01' })] }, 'link-verified'],
    ['4 holds at 89 days', { reviews: [review({ reviewedAt: '2026-04-02' })] }, 'model-identity-reviewed'],
    ['4 fails on identity mismatch, 6', { linkChecks: [live('agency')], reviews: [review({ identityMatch: false })] }, 'link-resolves-unverified'],
    ['5: live program page, no review', {}, 'link-verified'],
    ['6: live agency landing page', { linkChecks: [live('agency')] }, 'link-resolves-unverified'],
    ['6: live check missing pageClass reads as agency', { linkChecks: [check('live')] }, 'link-resolves-unverified'],
  ];
  for (const [name, over, expected] of rows) {
    it(name, () => assert.equal(deriveFreshness(inputs(over)).confidence, expected));
  }
});

describe('deriveFreshness link status', () => {
  const rows: Array<[string, Partial<FreshnessInputs>, string, string | null]> = [
    ['live', {}, 'live', '2026-06-01'],
    ['dead', { linkChecks: [check('dead', '2026-05-02')] }, 'dead', '2026-05-02'],
    ['bot-blocked', { linkChecks: [check('bot-blocked')] }, 'bot-blocked', '2026-06-01'],
    ['inconclusive keeps its date', { linkChecks: [check('inconclusive', '2026-06-20')] }, 'unchecked', '2026-06-20'],
    ['never checked', { linkChecks: [] }, 'unchecked', null],
    ['null url', { url: null }, 'unchecked', null],
    ['latest date wins regardless of order', { linkChecks: [check('dead', '2026-06-10'), live('program', '2026-05-01')] }, 'dead', '2026-06-10'],
    ['same-day tie: later element wins', { linkChecks: [check('dead', '2026-06-10'), check('inconclusive', '2026-06-10')] }, 'unchecked', '2026-06-10'],
    ['same-day tie, reversed', { linkChecks: [check('inconclusive', '2026-06-10'), check('dead', '2026-06-10')] }, 'dead', '2026-06-10'],
  ];
  for (const [name, over, status, lastChecked] of rows) {
    it(name, () => {
      const result = deriveFreshness(inputs(over));
      assert.equal(result.linkStatus, status);
      assert.equal(result.lastChecked, lastChecked);
    });
  }
});

describe('deriveFreshness reviews and amount binding', () => {
  it('emits only four keys when there is no review', () => {
    assert.deepEqual(deriveFreshness(inputs()), {
      linkStatus: 'live', confidence: 'link-verified', lastChecked: '2026-06-01', sourceReviewed: false,
    });
  });

  it('emits every key, in spec order, for an amount-verified review', () => {
    const result = deriveFreshness(inputs({ reviews: [amountReview()] }));
    assert.deepEqual(Object.keys(result), [
      'linkStatus', 'confidence', 'lastChecked', 'sourceReviewed', 'sourceReviewStale', 'sourceProgramVerified',
      'sourceAmountVerified', 'sourceVerified', 'sourceQuoteVerified', 'sourceEvidence', 'sourceVerifiedAmount', 'sourceVerifiedAt',
    ]);
    assert.equal(result.sourceEvidence, 'Eligible homeowners may receive up to $15,000 for roof replacement.');
    assert.equal(result.sourceVerifiedAmount, '$15,000');
    assert.equal(result.sourceVerifiedAt, '2026-06-15');
  });

  it('omits evidence keys for an identity-only review', () => {
    const result = deriveFreshness(inputs({ reviews: [review()] }));
    assert.deepEqual(result, {
      linkStatus: 'live', confidence: 'model-identity-reviewed', lastChecked: '2026-06-01', sourceReviewed: true,
      sourceReviewStale: false, sourceProgramVerified: true, sourceAmountVerified: false, sourceVerified: false,
      sourceQuoteVerified: false, sourceVerifiedAt: '2026-06-15',
    });
  });

  const binding: Array<[string, Partial<FreshnessInputs>, boolean, boolean]> = [
    ['bound and found', { reviews: [amountReview()] }, true, true],
    ['bound, not found in page', { reviews: [amountReview({ quoteFoundInPage: false })] }, true, false],
    ['identity mismatch never binds', { reviews: [amountReview({ identityMatch: false })] }, false, false],
    ['null maxAmount', { maxAmount: null, reviews: [amountReview()] }, false, false],
    ['absent maxAmount', { maxAmount: undefined, reviews: [amountReview()] }, false, false],
    ['zero maxAmount', { maxAmount: 0, reviews: [amountReview({ amountQuote: 'up to $0' })] }, false, false],
    ['corrected amount no longer matches', { maxAmount: 12000, reviews: [amountReview()] }, false, false],
    ['stale review still binds (only confidence drops)', { reviews: [amountReview({ reviewedAt: '2025-01-01' })] }, true, true],
    ['latest review decides: identity after amount', { reviews: [amountReview({ reviewedAt: '2026-06-01' }), review({ reviewedAt: '2026-06-02' })] }, false, false],
    ['latest review decides, any order', { reviews: [review({ reviewedAt: '2026-06-02' }), amountReview({ reviewedAt: '2026-06-03' })] }, true, true],
    ['same-day tie: later element wins', { reviews: [amountReview(), review()] }, false, false],
  ];
  for (const [name, over, amountVerified, quoteVerified] of binding) {
    it(name, () => {
      const result = deriveFreshness(inputs(over));
      assert.equal(result.sourceAmountVerified, amountVerified);
      assert.equal(result.sourceVerified, amountVerified);
      assert.equal(result.sourceQuoteVerified, quoteVerified);
      assert.equal('sourceEvidence' in result, amountVerified);
      assert.equal('sourceVerifiedAmount' in result, amountVerified);
    });
  }

  const staleness: Array<[string, boolean]> = [
    ['2026-06-30', false], ['2026-04-02', false], ['2026-04-01', true], ['2025-12-31', true], ['2026-07-15', false],
  ];
  for (const [reviewedAt, stale] of staleness) {
    it(`review on ${reviewedAt} is ${stale ? '' : 'not '}stale as of ${AS_OF}`, () => {
      assert.equal(deriveFreshness(inputs({ reviews: [review({ reviewedAt })] })).sourceReviewStale, stale);
    });
  }

  it('counts days across a leap day in UTC', () => {
    const asOf = '2028-05-29'; // 2028-03-01 + 89 days; Feb 29 lies before the window
    assert.equal(deriveFreshness(inputs({ asOf, reviews: [review({ reviewedAt: '2028-02-29' })] })).sourceReviewStale, true);
    assert.equal(deriveFreshness(inputs({ asOf, reviews: [review({ reviewedAt: '2028-03-01' })] })).sourceReviewStale, false);
  });

  it('cuts long evidence to a window that still shows the figure', () => {
    const quote = `${'Program background text. '.repeat(20)}Grants of up to $15,000 per home. ${'Further detail. '.repeat(20)}`;
    const result = deriveFreshness(inputs({ reviews: [amountReview({ amountQuote: quote })] }));
    const evidence = result.sourceEvidence ?? '';
    assert.ok(Array.from(evidence).length <= EVIDENCE_MAX_CHARS);
    assert.ok(evidence.includes('$15,000'));
    assert.ok(evidence.startsWith('…') && evidence.endsWith('…'));
  });

  it('trims surrounding whitespace from the evidence', () => {
    const result = deriveFreshness(inputs({ reviews: [amountReview({ amountQuote: '  up to $15,000\n' })] }));
    assert.equal(result.sourceEvidence, 'up to $15,000');
  });

  it('rejects a malformed as-of date, naming it', () => {
    assert.throws(() => deriveFreshness(inputs({ asOf: '2026-02-30' })), /asOf: '2026-02-30'/);
    assert.throws(() => deriveFreshness(inputs({ asOf: '06/30/2026' })), /asOf/);
  });
});

describe('deriveFreshness mechanical quote checks', () => {
  const QUOTE = 'Eligible homeowners may receive up to $15,000 for roof replacement.';
  const quoteCheck = (outcome: QuoteCheck['outcome'], over: Partial<QuoteCheck> = {}): QuoteCheck => {
    const base = {
      city: 'detroit', programId: 'roof-1', reviewedAt: '2026-06-15', quoteSha256: quoteDigest(QUOTE), url: URL, finalUrl: URL,
      checkedAt: '2026-06-20', outcome, contentType: 'text/html',
    };
    if (outcome === 'inconclusive') return { ...base, reason: 'page text too short', ...over } as QuoteCheck;
    const text = { textLength: 900, textSha256: 'a'.repeat(64) };
    return (outcome === 'not-found' ? { ...base, ...text, statedAmounts: [], ...over } : { ...base, ...text, ...over }) as QuoteCheck;
  };
  const verdict = (quoteFoundInPage: boolean, checks: QuoteCheck[], over: Partial<FreshnessInputs> = {}) => {
    const freshness = deriveFreshness(inputs({ reviews: [amountReview({ quoteFoundInPage })], quoteChecks: checks, ...over }));
    return [freshness.sourceQuoteVerified, freshness.confidence];
  };
  const rows: Array<[string, boolean, QuoteCheck[], Partial<FreshnessInputs>, [boolean, string]]> = [
    ['never checked: the hand-typed true stands', true, [], {}, [true, 'source-verified']],
    ['never checked: the hand-typed false stands', false, [], {}, [false, 'model-identity-reviewed']],
    ['found overrides a hand-typed false', false, [quoteCheck('found')], {}, [true, 'source-verified']],
    ['not-found overrides a hand-typed true', true, [quoteCheck('not-found')], {}, [false, 'model-identity-reviewed']],
    ['inconclusive changes nothing (hand-typed)', true, [quoteCheck('inconclusive')], {}, [true, 'source-verified']],
    ['inconclusive after not-found keeps not-found', true, [quoteCheck('not-found', { checkedAt: '2026-06-18' }), quoteCheck('inconclusive')], {}, [false, 'model-identity-reviewed']],
    ['the latest conclusive check wins, not file order', true, [quoteCheck('not-found', { checkedAt: '2026-06-25' }), quoteCheck('found', { checkedAt: '2026-06-20' })], {}, [false, 'model-identity-reviewed']],
    ['same day: the later line wins', false, [quoteCheck('not-found'), quoteCheck('found')], {}, [true, 'source-verified']],
    ['a check of another quote says nothing', true, [quoteCheck('not-found', { quoteSha256: quoteDigest('Up to $15,000.') })], {}, [true, 'source-verified']],
    ['a check of an older review says nothing', true, [quoteCheck('not-found', { reviewedAt: '2026-06-01' })], {}, [true, 'source-verified']],
    ['a check of a URL no longer cited says nothing', true, [quoteCheck('not-found', { url: 'https://example.gov/old' })], {}, [true, 'source-verified']],
    ['found cannot verify an amount the quote does not state', false, [quoteCheck('found')], { maxAmount: 20000 }, [false, 'model-identity-reviewed']],
  ];
  for (const [name, typed, checks, over, expected] of rows) it(name, () => assert.deepEqual(verdict(typed, checks, over), expected));
});
