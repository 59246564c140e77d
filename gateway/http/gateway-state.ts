/** What middleware leaves on `ctx.state` for the layers after it. */
import type { LicensedKey } from '../keys/key-lookup.ts';
import type { Snapshot } from '../snapshot/open-snapshot.ts';

/** Per-request state; `snapshot` is pinned at the start so a hot swap never changes it mid-request. */
export interface GatewayState {
  requestId: string;
  snapshot: Snapshot;
  /** Set once a licensed route's access step admitted and metered the key (routes/register-routes.ts). */
  key?: LicensedKey;
}
