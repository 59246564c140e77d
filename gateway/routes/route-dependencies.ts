/** What route handlers are given; everything a handler touches comes in through here. */
import type { AccessDependencies } from '../access/licensed-access.ts';
import type { CursorKeyring } from '../changes/cursor-keyring.ts';
import type { ProgramBodies } from '../programs/program-bodies.ts';
import type { Infrastructure } from '../readiness/evaluate-readiness.ts';

/** Dependencies shared by the route handlers. */
export interface RouteDependencies {
  access: AccessDependencies;
  /**
   * The key lookup of the fast path's admission (RouteChain.admitAtOnce), when it must differ from
   * `access.lookupKey`: the app passes the lookup before metrics instrumentation, since a request the fast
   * path declines is looked up again by Koa, and a key-store fault must be counted once.
   */
  lookupKeyAtOnce?: AccessDependencies['lookupKey'];
  programBodies: ProgramBodies;
  /** Bytes of change-feed pages to keep (gateway/programs/cache-budget.ts). */
  changePageBytes: number;
  /** The secrets that sign and verify change-feed cursors. */
  cursorKeys: CursorKeyring;
  infrastructure: Infrastructure;
  /** True once the gateway drains before exit; the readiness probe then answers 503. */
  isDraining: () => boolean;
  /** The OpenAPI document of the routes this app serves, built once from the same table. */
  openApiDocument: object;
  now: () => number;
  /**
   * Registers what empties a cache built from the snapshot's file: called whenever a served file fails its
   * check (gateway/snapshot/snapshot-holder.ts), so its bytes are never served again, not even from memory.
   */
  onSnapshotFault: (drop: () => void) => void;
}
