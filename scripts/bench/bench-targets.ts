/** The targets (issue 6) and the verdict of a figure against one. */

/** A figure's verdict beside its target, e.g. `≥ 70% of ceiling: met` or `≤ 10 s: missed by 18.2 s`. */
export interface Verdict {
  target: string;
  met: boolean;
  text: string;
}

/** At least `minimum` (a ratio shown as a percentage). */
export function atLeastRatio(value: number, minimum: number, label = 'of ceiling'): Verdict {
  const target = `≥ ${percent(minimum)} ${label}`;
  if (!Number.isFinite(value)) return { target, met: false, text: `${target}: not measured` };
  const met = value >= minimum;
  return { target, met, text: met ? `${target}: met` : `${target}: missed by ${((minimum - value) * 100).toFixed(1)} points` };
}

/** At most `limit`, in `unit`, with `digits` decimals. */
export function atMost(value: number | undefined, limit: number, unit: string, digits = 1): Verdict {
  const target = `≤ ${limit} ${unit}`;
  if (value === undefined || !Number.isFinite(value)) return { target, met: false, text: `${target}: not measured` };
  const met = value <= limit;
  return { target, met, text: met ? `${target}: met` : `${target}: missed by ${(value - limit).toFixed(digits)} ${unit} (${percent(value / limit)} of target)` };
}

/** `value` within `tolerance` below `reference` (being faster is fine): the cache hit against unfiltered. */
export function withinBelow(value: number, reference: number, tolerance: number, label: string): Verdict {
  const target = `within ${percent(tolerance)} of ${label}`;
  if (!Number.isFinite(value) || !Number.isFinite(reference) || reference === 0) return { target, met: false, text: `${target}: not measured` };
  const shortfall = 1 - value / reference;
  const met = shortfall <= tolerance;
  return { target, met, text: met ? `${target}: met (${signedPercent(-shortfall)})` : `${target}: missed (${signedPercent(-shortfall)}, ${((shortfall - tolerance) * 100).toFixed(1)} points too slow)` };
}

/** The build-time target for a scale: 10 s at 1x (57k rows), 100 s at 10x; none otherwise. */
export function buildSecondsTarget(scale: number): number | undefined {
  if (scale === 1) return 10;
  if (scale === 10) return 100;
  return undefined;
}

/** The gateway RSS budget in MB for a scale: 200 at 1x, 400 at 10x; none otherwise. */
export function gatewayRssTargetMb(scale: number): number | undefined {
  if (scale === 1) return 200;
  if (scale === 10) return 400;
  return undefined;
}

/** `0.7` -> `70%`. */
export function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(ratio < 0.1 ? 1 : 0)}%`;
}

function signedPercent(ratio: number): string {
  return `${ratio >= 0 ? '+' : ''}${(ratio * 100).toFixed(1)}%`;
}
