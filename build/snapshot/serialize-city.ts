/**
 * One city's share of a snapshot, everything but the SQLite writes: its records read, ordered, derived and
 * serialized into the collection document, with each served record's place in those bytes. A pure function
 * of the corpus, so it runs alike on the writing thread or on a worker thread (city-worker.ts), and the
 * file is the same bytes either way.
 */
import type { Revision } from '../contract/parse-revision.ts';
import { NATIONAL_SLUG } from '../contract/national-slug.ts';
import type { EnvelopeLinks } from '../contract/envelope-links.ts';
import { programListBytesOfJoined, SCOPE_LICENSED_CITY, SCOPE_NATIONAL } from '../contract/program-list-bytes.ts';
import type { ProgramRow } from '../corpus/corpus-types.ts';
import type { DerivedRecord, RecordDeriver } from '../derive/derive-record.ts';
import type { TalliedRecord } from '../derive/tally-health.ts';
import type { WithholdingPolicy } from './snapshot-format.ts';
import { digestBody } from './read-digests.ts';
import { strongEtagOfDigest } from './strong-etag.ts';

/** A served record: a row of `programs`, its bytes at [offset, offset + length) of the collection. */
export interface ServedRow {
  id: string;
  ord: number;
  facets: string;
  offset: number;
  length: number;
}

/** A withheld record: a row of `withheld_programs`, the only place its bytes are stored. */
export interface WithheldRow {
  id: string;
  ord: number;
  policy: WithholdingPolicy;
  facets: string;
  body: Uint8Array;
}

/** A city (or the national layer) ready to be written. */
export interface SerializedCity {
  slug: string;
  /** The unfiltered collection document, which holds every served record's bytes. */
  collection: Uint8Array;
  /** SHA-256 of the collection, recorded for the gateway's read check (read-digests.ts) and cut into its ETag. */
  digest: Uint8Array;
  etag: string;
  served: ServedRow[];
  withheld: WithheldRow[];
  /** Every record in served order, with what the health tally reads. */
  tallied: TalliedRecord[];
}

/** The collection envelope's members that are the same for every city of a build. */
export interface CollectionHead {
  revision: Revision;
  exclusionPolicyVersion: number;
  /** The envelopes' `docs` and `openapi`, when the manifest names a public base URL. */
  links?: EnvelopeLinks;
}

/** Orders rows by id in code-point order: the served order, independent of file order. */
export function byId<T extends { id: string }>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Derives and serializes one city's rows (`slug` may be NATIONAL_SLUG, derived as the federal layer). */
export function serializeCity(slug: string, rows: readonly ProgramRow[], derive: RecordDeriver, head: CollectionHead): SerializedCity {
  const federal = slug === NATIONAL_SLUG;
  const records: DerivedRecord[] = byId(rows).map((row) => derive(slug, row, federal ? { federalCanonical: true } : undefined));
  const bodies: string[] = [];
  const servedRecords: Array<{ record: DerivedRecord; ord: number }> = [];
  const withheld: WithheldRow[] = [];
  records.forEach((record, ord) => {
    if (record.exclusion === 'served') {
      servedRecords.push({ record, ord });
      bodies.push(record.body);
    } else {
      withheld.push({ id: record.id, ord, policy: record.exclusion, facets: JSON.stringify(record.facets), body: Buffer.from(record.body, 'utf8') });
    }
  });
  // One encoding of all the served bodies: a buffer per record cost a fifth of serializing a city.
  const joined = Buffer.from(bodies.join(','), 'utf8');
  const collection = programListBytesOfJoined(
    { city: slug, datasetRevision: head.revision, excludedBySafetyPolicy: withheld.length, exclusionPolicyVersion: head.exclusionPolicyVersion, links: head.links, scope: federal ? SCOPE_NATIONAL : SCOPE_LICENSED_CITY },
    bodies.length,
    joined,
  );
  const places = bodyPlaces(collection, joined, bodies);
  const digest = digestBody(collection);
  return {
    slug,
    collection,
    digest,
    etag: strongEtagOfDigest(digest),
    served: servedRecords.map(({ record, ord }, index) => ({ id: record.id, ord, facets: JSON.stringify(record.facets), ...places[index]! })),
    withheld,
    tallied: records.map(({ name, url, exclusion, freshness, pageClass, reviewedBy }) => ({ name, url, exclusion, freshness, pageClass, reviewedBy })),
  };
}

// The envelope's key before the records (program-list-bytes.ts). Its first occurrence is the key itself:
// the members before it are JSON strings and numbers, in which a quote is always escaped.
const PROGRAMS_KEY = Buffer.from('"programs":[');

/**
 * Where each body sits in the collection: the records follow the `programs` key, joined by commas. The
 * joined bytes are checked to be there, and the bodies' UTF-8 lengths to fill them exactly, so an envelope
 * that ever stopped joining bodies that way fails the build instead of storing offsets that point at the
 * wrong bytes. (Each body is well-formed UTF-16, being JSON.stringify's output, so its bytes in the joined
 * encoding are its own encoding.)
 */
function bodyPlaces(collection: Buffer, joined: Buffer, bodies: readonly string[]): Array<{ offset: number; length: number }> {
  const key = collection.indexOf(PROGRAMS_KEY);
  if (key < 0) throw new Error('collection bytes have no "programs" member');
  const first = key + PROGRAMS_KEY.length;
  if (!collection.subarray(first, first + joined.length).equals(joined)) throw new Error('collection bytes do not hold the records where the "programs" member begins');
  let offset = first;
  const places = bodies.map((body, index) => {
    const start = offset + (index > 0 ? 1 : 0);
    const length = Buffer.byteLength(body, 'utf8');
    offset = start + length;
    return { offset: start, length };
  });
  if (offset - first !== joined.length) throw new Error(`collection records take ${joined.length} bytes, their bodies ${offset - first}`);
  return places;
}
