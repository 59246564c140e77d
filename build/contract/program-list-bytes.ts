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
  const parts: Uint8Array[] = [Buffer.from(envelopePrefix(head, bodies.length))];
  bodies.forEach((body, index) => {
    if (index > 0) parts.push(COMMA);
    parts.push(body);
  });
  parts.push(Buffer.from(envelopeSuffix(head)));
  return Buffer.concat(parts);
}

/**
 * programListBytes of `count` bodies given already joined by commas (the UTF-8 bytes of their texts joined
 * with ","): the same bytes, without a buffer per body. The build encodes a city's records this way.
 */
export function programListBytesOfJoined(head: ProgramListHead, count: number, joined: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(envelopePrefix(head, count)), joined, Buffer.from(envelopeSuffix(head))]);
}

/** The envelope up to and including the `programs` array's opening bracket. */
function envelopePrefix(head: ProgramListHead, count: number): string {
  return `{"city":${JSON.stringify(head.city)},"count":${count},"datasetRevision":${JSON.stringify(head.datasetRevision)},` +
    `"excludedBySafetyPolicy":${head.excludedBySafetyPolicy},"exclusionPolicyVersion":${head.exclusionPolicyVersion},"programs":[`;
}

/** The envelope from the `programs` array's closing bracket on. */
function envelopeSuffix(head: ProgramListHead): string {
  const links = head.links === undefined ? '' : `,"docs":${JSON.stringify(head.links.docs)},"openapi":${JSON.stringify(head.links.openapi)}`;
  return `]${links}${head.sample === undefined ? '' : `,"sample":${head.sample}`},"scope":${JSON.stringify(head.scope)}}`;
}

const COMMA = Buffer.from(',');

/** Scope labels of the collections (the envelope's optional `scope` member). */
export const SCOPE_LICENSED_CITY = 'licensed-live-city';
export const SCOPE_NATIONAL = 'national-federal-canonical';
export const SCOPE_SAMPLE = 'public-sample';
