/** Key tiers that carry their own request limits (spec 5.5). */
export const LIMIT_TIERS = ['trial', 'nonprofit', 'commercial'] as const;

/** A key tier as the limiter sees it. */
export type LimitTier = (typeof LIMIT_TIERS)[number];

/** Requests allowed per clock-aligned minute and per UTC day; `perDay: null` means no day window. */
export interface LimitRule {
  readonly perMinute: number;
  readonly perDay: number | null;
}

/** Every request limit the gateway enforces: one rule per key tier, one per client address on keyless routes. */
export interface LimitTable {
  readonly tiers: Readonly<Record<LimitTier, LimitRule>>;
  readonly public: LimitRule;
}

/**
 * The spec's limits (5.5, 8). The keyless public limit is not published by the spec; we choose 120
 * requests per minute per client address (two a second, room for an office behind one NAT) and no day
 * window, since anonymous addresses are cheap to rotate and a day counter per address only costs memory.
 */
export const DEFAULT_LIMITS: LimitTable = freezeTable({
  tiers: {
    trial: { perMinute: 60, perDay: 2_000 },
    nonprofit: { perMinute: 120, perDay: 20_000 },
    commercial: { perMinute: 600, perDay: 200_000 },
  },
  public: { perMinute: 120, perDay: null },
});

const RULE_FIELDS = ['perMinute', 'perDay'] as const;

/**
 * Validates a `--limits` file's parsed JSON and lays it over `base` (the spec's defaults unless told):
 * a partial file overrides only the fields it names. Throws one line naming `source` and the field.
 */
export function parseLimitsFile(json: unknown, source: string, base: LimitTable = DEFAULT_LIMITS): LimitTable {
  const fail = (path: string, problem: string): never => {
    throw new Error(`${source} ${path}: ${problem}`);
  };
  const root = asObject(json, '$', ['tiers', 'public'], fail);
  const tiersOverride = root.tiers === undefined ? {} : asObject(root.tiers, '$.tiers', LIMIT_TIERS, fail);
  const tiers = {} as Record<LimitTier, LimitRule>;
  for (const tier of LIMIT_TIERS) {
    tiers[tier] = overrideRule(base.tiers[tier], tiersOverride[tier], `$.tiers.${tier}`, fail);
  }
  return freezeTable({ tiers, public: overrideRule(base.public, root.public, '$.public', fail) });
}

type Fail = (path: string, problem: string) => never;

function overrideRule(base: LimitRule, value: unknown, path: string, fail: Fail): LimitRule {
  if (value === undefined) return base;
  const override = asObject(value, path, RULE_FIELDS, fail);
  const perMinute = override.perMinute === undefined ? base.perMinute : asQuota(override.perMinute, `${path}.perMinute`, fail);
  // `perDay: null` is an explicit "no day window"; an absent field keeps the base value.
  let perDay = base.perDay;
  if (override.perDay === null) perDay = null;
  else if (override.perDay !== undefined) perDay = asQuota(override.perDay, `${path}.perDay`, fail);
  return { perMinute, perDay };
}

function asObject(value: unknown, path: string, allowed: readonly string[], fail: Fail): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail(path, `must be an object, got ${describe(value)}`);
  }
  for (const name of Object.keys(value)) {
    if (!allowed.includes(name)) fail(`${path}.${name}`, `unknown field; expected one of ${allowed.join(', ')}`);
  }
  return value as Record<string, unknown>;
}

function asQuota(value: unknown, path: string, fail: Fail): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) return value;
  return fail(path, `must be a positive integer, got ${describe(value)}`);
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

function freezeTable(table: LimitTable): LimitTable {
  const tiers = {} as Record<LimitTier, LimitRule>;
  for (const tier of LIMIT_TIERS) tiers[tier] = Object.freeze({ ...table.tiers[tier] });
  return Object.freeze({ tiers: Object.freeze(tiers), public: Object.freeze({ ...table.public }) });
}
