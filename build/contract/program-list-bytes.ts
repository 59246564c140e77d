/**
 * Assembles program-list envelope bytes (spec 4.3) from already-serialized record bodies. The build uses it
 * for unfiltered collections and the gateway for filtered ones, so both produce the same bytes.
 */
import type { EnvelopeLinks } from './envelope-links.ts';
import type { ProgramList } from './program-list-schema.ts';

/**
 * The envelope members other than the records themselves, picked from the schema-derived ProgramList;
 * `scope` is optional in the published schema but every collection the build or gateway assembles has one.
 * `sample` marks the keyless evaluation collection; `links`, when the build named a public base URL, are
 * the `docs` and `openapi` members, both or neither.
 */
export type ProgramListHead =
  Pick<ProgramList, 'city' | 'datasetRevision' | 'excludedBySafetyPolicy' | 'exclusionPolicyVersion' | 'sample'>
  & Required<Pick<ProgramList, 'scope'>>
  & { links?: EnvelopeLinks };

/** Joins record bodies into one envelope; `count` is always the number of bodies. */
export function programListBytes(head: ProgramListHead, bodies: readonly Uint8Array[]): Buffer {
  const prefix =
    `{"city":${JSON.stringify(head.city)},"count":${bodies.length},"datasetRevision":${JSON.stringify(head.datasetRevision)},` +
    `"excludedBySafetyPolicy":${head.excludedBySafetyPolicy},"exclusionPolicyVersion":${head.exclusionPolicyVersion},"programs":[`;
  const links = head.links === undefined ? '' : `,"docs":${JSON.stringify(head.links.docs)},"openapi":${JSON.stringify(head.links.openapi)}`;
  const suffix = `]${links}${head.sample === undefined ? '' : `,"sample":${head.sample}`},"scope":${JSON.stringify(head.scope)}}`;
  const parts: Uint8Array[] = [Buffer.from(prefix)];
  bodies.forEach((body, index) => {
    if (index > 0) parts.push(COMMA);
    parts.push(body);
  });
  parts.push(Buffer.from(suffix));
  return Buffer.concat(parts);
}

const COMMA = Buffer.from(',');

/** Scope labels of the collections (the envelope's optional `scope` member). */
export const SCOPE_LICENSED_CITY = 'licensed-live-city';
export const SCOPE_NATIONAL = 'national-federal-canonical';
export const SCOPE_SAMPLE = 'public-sample';
