/** The latest link-check attempt per URL, by the rule the served `linkStatus` uses (spec 2.2). */
import type { LinkCheck } from '../corpus/corpus-types.ts';

/**
 * Greatest `checkedAt` per URL; on the same date the later line wins (a later line records a later
 * attempt), as in build/derive/derive-freshness.ts. `only`, when given, limits the map to those URLs.
 */
export function latestAttemptByUrl(checks: readonly LinkCheck[], only?: ReadonlySet<string>): Map<string, LinkCheck> {
  const latest = new Map<string, LinkCheck>();
  for (const check of checks) {
    if (only !== undefined && !only.has(check.url)) continue;
    const best = latest.get(check.url);
    if (best === undefined || check.checkedAt >= best.checkedAt) latest.set(check.url, check);
  }
  return latest;
}
