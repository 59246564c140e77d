/** What route modules are given; everything a handler touches comes in through here. */
import type { AccessDependencies } from '../access/licensed-access.ts';
import type { FilteredCollection } from '../programs/filter-collection.ts';
import type { Infrastructure } from '../readiness/evaluate-readiness.ts';

/** Dependencies shared by the route modules. */
export interface RouteDependencies {
  access: AccessDependencies;
  filteredCollection: FilteredCollection;
  infrastructure: Infrastructure;
  now: () => number;
}
