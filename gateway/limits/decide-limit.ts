import type { LimitPolicy, WindowSlot } from './limit-windows.ts';
import type { LimitDecision } from './rate-limiter.ts';

/**
 * Whether a request may pass given each window's count before it (`used[i]` for `slots[i]`): only if
 * every window still has room. Both storages apply this same rule before counting anything.
 */
export function hasRoom(slots: readonly WindowSlot[], used: readonly number[]): boolean {
  return slots.every((slot, i) => (used[i] ?? 0) < slot.quota);
}

/**
 * Builds the decision from each window's count after the request (`used[i]` for `slots[i]`; unchanged
 * when rejected). The reported window is the one with the fewest remaining requests; on a tie the one
 * that resets sooner, except at zero remaining, where the one that resets later is reported, because
 * that is the one that blocks (a spent day outlasts a spent minute), so `X-RateLimit-Reset` and
 * `Retry-After` agree. `retryAfter` counts whole seconds, rounded up, to that window's end.
 */
export function decideLimit(
  policy: LimitPolicy,
  slots: readonly WindowSlot[],
  used: readonly number[],
  allowed: boolean,
  nowMs: number,
): LimitDecision {
  let reported: WindowSlot | undefined;
  let reportedRemaining = Infinity;
  slots.forEach((slot, i) => {
    // Counts can exceed a quota that shrank mid-window (a tier change, a new limits file).
    const remaining = Math.max(0, slot.quota - (used[i] ?? 0));
    const better =
      remaining < reportedRemaining ||
      (remaining === reportedRemaining && reported !== undefined &&
        (remaining === 0 ? slot.endMs > reported.endMs : slot.endMs < reported.endMs));
    if (better) {
      reported = slot;
      reportedRemaining = remaining;
    }
  });
  if (reported === undefined) throw new Error('rate-limit policy has no windows');
  const decision = {
    allowed,
    window: reported.name,
    limit: reported.quota,
    remaining: reportedRemaining,
    resetAt: reported.endMs / 1000,
    policy,
  };
  if (allowed) return decision;
  return { ...decision, retryAfter: Math.max(1, Math.ceil((reported.endMs - nowMs) / 1000)) };
}
