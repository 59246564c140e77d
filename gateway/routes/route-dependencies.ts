/** What route modules are given; everything a handler touches comes in through here. */
import type { AccessDependencies } from '../access/licensed-access.ts';
import type { ProgramBodies } from '../programs/program-bodies.ts';
import type { Infrastructure } from '../readiness/evaluate-readiness.ts';

/** Dependencies shared by the route modules. */
export interface RouteDependencies {
  access: AccessDependencies;
  programBodies: ProgramBodies;
  /** Bytes of change-feed pages to keep (gateway/programs/cache-budget.ts). */
  changePageBytes: number;
  infrastructure: Infrastructure;
  now: () => number;
}
