/**
 * Shared pieces of the rate-limit HTTP tests: a stepped clock, the header agreement rules of spec 4.1
 * (X-RateLimit-* with IETF RateLimit and RateLimit-Policy), and the 429 body check.
 */
import * as assert from 'node:assert/strict';
import { assertMatchesSchema } from '../../support/contract-validators.ts';
import type { ApiErrorBody } from '../../../build/contract/error-schema.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** A clock the tests move by hand; windows are crossed by stepping it, never by sleeping. */
export interface SteppedClock {
  now: () => number;
  /** Moves to `offsetMs` past the start of the minute after the current one. */
  nextMinute(offsetMs?: number): void;
  /** Moves to `offsetMs` past the next UTC midnight. */
  nextDay(offsetMs?: number): void;
}

/**
 * Starts 10 minutes and 250 ms past the next UTC midnight: in the future, so the test store's already
 * expired key stays expired, well inside a trial key's 30 days, and far from a day boundary.
 */
export function steppedClock(): SteppedClock {
  let t = Math.ceil(Date.now() / DAY_MS) * DAY_MS + 10 * MINUTE_MS + 250;
  return {
    now: () => t,
    nextMinute: (offsetMs = 250) => (t = (Math.floor(t / MINUTE_MS) + 1) * MINUTE_MS + offsetMs),
    nextDay: (offsetMs = 250) => (t = (Math.floor(t / DAY_MS) + 1) * DAY_MS + offsetMs),
  };
}

/** The rate-limit headers of one response, parsed. */
export interface LimitHeaders {
  limit: number;
  remaining: number;
  reset: number;
  /** The window `RateLimit` names (`minute` or `day`). */
  window: string;
}

function integer(response: Response, name: string): number {
  const text = response.headers.get(name);
  assert.ok(text !== null && /^\d+$/.test(text), `${name} must be a non-negative integer, got ${text}`);
  return Number(text);
}

/**
 * Parses the rate-limit headers and checks they agree with each other at `nowMs`: Remaining <= Limit;
 * Reset is the end of the window `RateLimit` names, whose `RateLimit-Policy` item has quota Limit;
 * `RateLimit` r equals Remaining and t the seconds to Reset; a 429 carries Retry-After equal to t.
 */
export function assertLimitHeaders(response: Response, now: number | readonly [number, number], where = ''): LimitHeaders {
  // A wall-clock caller passes the instants before and after its request; the server's time lies between.
  const [earliestMs, latestMs] = typeof now === 'number' ? [now, now] : now;
  const limit = integer(response, 'X-RateLimit-Limit');
  const remaining = integer(response, 'X-RateLimit-Remaining');
  const reset = integer(response, 'X-RateLimit-Reset');
  assert.ok(remaining <= limit, `${where} remaining ${remaining} > limit ${limit}`);
  const rateLimit = /^"(minute|day)";r=(\d+);t=(\d+)$/.exec(response.headers.get('RateLimit') ?? '');
  assert.ok(rateLimit, `${where} RateLimit header: ${response.headers.get('RateLimit')}`);
  const [, window = '', r, t] = rateLimit;
  const policy = new Map(
    (response.headers.get('RateLimit-Policy') ?? '').split(', ').map((item) => {
      const match = /^"(minute|day)";q=(\d+);w=(\d+)$/.exec(item);
      assert.ok(match, `${where} RateLimit-Policy item ${item}`);
      return [match[1], { quota: Number(match[2]), seconds: Number(match[3]) }] as const;
    }),
  );
  const reported = policy.get(window);
  assert.ok(reported, `${where} RateLimit names ${window}, absent from RateLimit-Policy`);
  assert.equal(reported.quota, limit, `${where} RateLimit-Policy quota of ${window} vs X-RateLimit-Limit`);
  assert.equal(reset % reported.seconds, 0, `${where} X-RateLimit-Reset ${reset} is not a ${window} boundary`);
  const [earliest, latest] = [Math.floor(earliestMs / 1000), Math.floor(latestMs / 1000)];
  assert.ok(reset > earliest && reset <= latest + reported.seconds, `${where} reset ${reset} outside the current ${window}`);
  assert.equal(Number(r), remaining, `${where} RateLimit r vs X-RateLimit-Remaining`);
  assertWithin(Number(t), reset - latest, reset - earliest, `${where} RateLimit t vs X-RateLimit-Reset`);
  if (response.status === 429) {
    assert.equal(remaining, 0, `${where} a 429 reports an exhausted window`);
    const retryAfter = Number(response.headers.get('Retry-After'));
    const secondsLeft = (ms: number) => Math.max(1, Math.ceil((reset * 1000 - ms) / 1000));
    assertWithin(retryAfter, secondsLeft(latestMs), secondsLeft(earliestMs), `${where} Retry-After vs X-RateLimit-Reset`);
  }
  return { limit, remaining, reset, window };
}

function assertWithin(actual: number, low: number, high: number, message: string): void {
  assert.ok(actual >= low && actual <= high, `${message}: ${actual} not in [${low}, ${high}]`);
}

/** Checks a 429: ApiError `RATE_LIMITED`, Retry-After >= 1, no dataset revision. Returns Retry-After. */
export async function assertRateLimited(response: Response, where = ''): Promise<number> {
  assert.equal(response.status, 429, where);
  assert.equal(await errorCode(response, where), 'RATE_LIMITED', where);
  assert.equal(response.headers.get('X-Dataset-Revision'), null, `${where} 429 must not carry X-Dataset-Revision`);
  const retryAfter = Number(response.headers.get('Retry-After'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1, `${where} Retry-After ${retryAfter}`);
  return retryAfter;
}

/** Reads a response's ApiError code, asserting the body is an ApiError. */
export async function errorCode(response: Response, where = ''): Promise<string | undefined> {
  const body: unknown = await response.json();
  assertMatchesSchema('apiError', body, where);
  return (body as ApiErrorBody).code;
}
