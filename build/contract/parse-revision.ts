/**
 * The dataset revision as both sides see it: the build mints one (compute-revision.ts), the gateway reads
 * it back from a snapshot. Kept in the contract so the gateway never loads the corpus loader to get it.
 */
import { REVISION_PATTERN } from './api-version.ts';

declare const revisionBrand: unique symbol;

/** A dataset revision; only computeRevision and parseRevision produce one. */
export type Revision = string & { readonly [revisionBrand]: true };

const REVISION = new RegExp(REVISION_PATTERN);

/** Accepts a revision read back from a snapshot, when it has the gm1 form (spec 4.1). */
export function parseRevision(text: string): Revision | undefined {
  return REVISION.test(text) ? (text as Revision) : undefined;
}
