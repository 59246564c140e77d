/**
 * The key policy (spec 1.7, 3, 5.6, 8): what a new key may be, and whether a stored trial key still
 * satisfies the trial rules. Pure functions over values; the clock is passed in.
 */
import { KeyPolicyError } from './key-errors.ts';
import { isKeyTier, type KeyTier } from './key-tiers.ts';

/** Trial limits: 1 to 5 distinct city slugs and a lifetime of at most 30 days (30 by default). */
export const trialPolicy = { minCities: 1, maxCities: 5, maxLifetimeDays: 30, defaultLifetimeDays: 30 } as const;

/** A city slug: lowercase letters and digits in dash-separated groups. */
export const citySlugPattern = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Longest accepted key label, in characters. */
export const maxLabelLength = 200;

const dayMs = 86_400_000;
const maxTrialLifetimeMs = trialPolicy.maxLifetimeDays * dayMs;

/** What an operator asks for when creating a key. */
export interface KeyPolicyRequest {
  readonly tier: KeyTier;
  /** Trial only: the approved city slugs. Refused on paid keys, which cover the whole licensed scope. */
  readonly cities?: readonly string[] | undefined;
  /** Lifetime in whole days from now; trial default 30; paid keys without it never expire. */
  readonly days?: number | undefined;
  /** Absolute expiry instead of `days`; may lie in the past (an already-expired key, for tests). */
  readonly expiresAt?: Date | undefined;
  readonly label?: string | undefined;
  /** When given, every trial city must be in it (the live slugs of the served dataset). */
  readonly liveCitySlugs?: ReadonlySet<string> | undefined;
  /** Names where `liveCitySlugs` came from in a refusal (`--dataset dist/current.sqlite`). */
  readonly liveCitySource?: string | undefined;
}

/** A key request that passed the policy, ready to store. */
export interface ResolvedKeyPolicy {
  readonly tier: KeyTier;
  readonly cities: readonly string[] | null;
  readonly expiresAt: Date | null;
  readonly label: string | null;
}

/** Checks a key request against the policy; throws `KeyPolicyError` naming the offending value. */
export function resolveKeyPolicy(request: KeyPolicyRequest, now: Date): ResolvedKeyPolicy {
  const { tier } = request;
  if (!isKeyTier(tier)) throw new KeyPolicyError(`tier must be one of trial, nonprofit, commercial, got ${JSON.stringify(tier)}`);
  const expiresAt = resolveExpiry(request, now);
  const label = resolveLabel(request.label);
  if (tier !== 'trial') {
    if (request.cities !== undefined) {
      throw new KeyPolicyError(`cities are only for trial keys; a ${tier} key covers the whole licensed scope`);
    }
    return { tier, cities: null, expiresAt, label };
  }
  const cities = resolveTrialCities(request.cities ?? [], request.liveCitySlugs, request.liveCitySource ?? 'the dataset');
  if (expiresAt === null) throw new KeyPolicyError('trial key needs an expiry');
  const lifetimeMs = expiresAt.getTime() - now.getTime();
  if (lifetimeMs > maxTrialLifetimeMs) {
    const days = (lifetimeMs / dayMs).toFixed(2).replace(/\.?0+$/, '');
    throw new KeyPolicyError(`trial key lifetime must be at most ${trialPolicy.maxLifetimeDays} days, got ${days} days`);
  }
  return { tier, cities, expiresAt, label };
}

/** The validated cities of a stored trial key, or `undefined` when its stored policy is broken. */
export function checkStoredTrialPolicy(stored: {
  readonly cities: string | null;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
}): readonly string[] | undefined {
  if (stored.expiresAt === null || Number.isNaN(stored.expiresAt.getTime())) return undefined;
  if (stored.expiresAt.getTime() - stored.createdAt.getTime() > maxTrialLifetimeMs) return undefined;
  let cities: unknown;
  try {
    cities = stored.cities === null ? null : JSON.parse(stored.cities);
  } catch {
    return undefined;
  }
  if (!Array.isArray(cities)) return undefined;
  if (cities.length < trialPolicy.minCities || cities.length > trialPolicy.maxCities) return undefined;
  if (!cities.every((city) => typeof city === 'string' && citySlugPattern.test(city))) return undefined;
  if (new Set(cities).size !== cities.length) return undefined;
  return Object.freeze([...(cities as string[])]);
}

function resolveExpiry(request: KeyPolicyRequest, now: Date): Date | null {
  const { days, expiresAt, tier } = request;
  if (days !== undefined && expiresAt !== undefined) {
    throw new KeyPolicyError('give a lifetime in days or an expiry date, not both');
  }
  if (expiresAt !== undefined) {
    if (Number.isNaN(expiresAt.getTime())) throw new KeyPolicyError('expiry date is not a valid date');
    return expiresAt;
  }
  const lifetimeDays = days ?? (tier === 'trial' ? trialPolicy.defaultLifetimeDays : undefined);
  if (lifetimeDays === undefined) return null;
  if (!Number.isSafeInteger(lifetimeDays) || lifetimeDays < 1) {
    throw new KeyPolicyError(`lifetime must be a whole number of days >= 1, got ${lifetimeDays}`);
  }
  return new Date(now.getTime() + lifetimeDays * dayMs);
}

function resolveTrialCities(cities: readonly string[], live: ReadonlySet<string> | undefined, liveSource: string): readonly string[] {
  const { minCities, maxCities } = trialPolicy;
  if (cities.length < minCities || cities.length > maxCities) {
    throw new KeyPolicyError(`trial key needs ${minCities} to ${maxCities} city slugs, got ${cities.length}`);
  }
  const seen = new Set<string>();
  for (const city of cities) {
    if (!citySlugPattern.test(city)) {
      throw new KeyPolicyError(`city slug ${JSON.stringify(city)} must match ${citySlugPattern.source}`);
    }
    if (seen.has(city)) throw new KeyPolicyError(`city slug ${JSON.stringify(city)} is listed twice`);
    if (live !== undefined && !live.has(city)) {
      throw new KeyPolicyError(`city slug ${JSON.stringify(city)} is not a live city of ${liveSource}`);
    }
    seen.add(city);
  }
  return Object.freeze([...cities]);
}

function resolveLabel(label: string | undefined): string | null {
  if (label === undefined || label === '') return null;
  if (label.length > maxLabelLength) {
    throw new KeyPolicyError(`label must be at most ${maxLabelLength} characters, got ${label.length}`);
  }
  // Labels appear in one-line CLI output and logs; control characters would break those lines.
  if (/\p{Cc}/u.test(label)) throw new KeyPolicyError('label must not contain control characters');
  return label;
}
