import { LIMIT_TIERS, type LimitRule, type LimitTable, type LimitTier } from './limit-table.ts';

/** Length in seconds of each window kind; the names are the IETF `RateLimit-Policy` item names we publish. */
export const WINDOW_SECONDS = { minute: 60, day: 86_400 } as const;

/** A window kind: a clock-aligned minute or a UTC day. */
export type WindowName = keyof typeof WINDOW_SECONDS;

/** One quota of a policy: `quota` requests per `seconds`-long window (IETF `"minute";q=60;w=60`). */
export interface PolicyWindow {
  readonly name: WindowName;
  readonly quota: number;
  readonly seconds: number;
}

/** The windows one request counts against, minute first. */
export type LimitPolicy = readonly PolicyWindow[];

/** A policy window placed on the clock: the fixed window containing a given instant. */
export interface WindowSlot extends PolicyWindow {
  readonly startMs: number;
  readonly endMs: number;
}

/** What a limit applies to: a key tier, or the per-address limit of the keyless routes. */
export type LimitSubject = LimitTier | 'public';

/** Turns a rule into its frozen policy: a minute window and, unless `perDay` is null, a day window. */
export function limitPolicy(rule: LimitRule): LimitPolicy {
  const windows: PolicyWindow[] = [Object.freeze({ name: 'minute', quota: rule.perMinute, seconds: WINDOW_SECONDS.minute })];
  if (rule.perDay !== null) {
    windows.push(Object.freeze({ name: 'day', quota: rule.perDay, seconds: WINDOW_SECONDS.day }));
  }
  return Object.freeze(windows);
}

/** Precomputes the policy of every subject of a table, so a call only looks its subject up. */
export function tablePolicies(table: LimitTable): Readonly<Record<LimitSubject, LimitPolicy>> {
  const policies = { public: limitPolicy(table.public) } as Record<LimitSubject, LimitPolicy>;
  for (const tier of LIMIT_TIERS) policies[tier] = limitPolicy(table.tiers[tier]);
  return Object.freeze(policies);
}

/**
 * Places each window of `policy` on the clock at `nowMs`. Windows are fixed and aligned to the epoch, so
 * a minute ends on the next whole minute and a day at the next UTC midnight (epoch time has no leap
 * seconds), and every process sharing wall time agrees on window boundaries and on `X-RateLimit-Reset`.
 */
export function windowSlots(policy: LimitPolicy, nowMs: number): WindowSlot[] {
  return policy.map((window) => windowSlot(window, nowMs));
}

/** One window of a policy placed on the clock at `nowMs` (see windowSlots). */
export function windowSlot(window: PolicyWindow, nowMs: number): WindowSlot {
  const lengthMs = window.seconds * 1000;
  const startMs = Math.floor(nowMs / lengthMs) * lengthMs;
  return { ...window, startMs, endMs: startMs + lengthMs };
}
