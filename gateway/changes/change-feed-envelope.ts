/** Assembles the ChangeFeed envelope (spec 4.3) from stored event bytes, in the schema's key order. */

/** Spec 4.3 rule 4, said in every response because change rows carry no scope field (spec 2.7). */
export const CHANGE_SCOPE_NOTE =
  'Change rows carry no home-repair scope field: reconcile each programId with GET /api/programs/{city}/{programId} before downstream use; a 404 there means the record is not in the licensed live scope.';

/** Set when a page stopped short of `limit` with more to read, so an empty or short page is not taken for the end (rule 2). */
export const CHANGE_SKIPPED_NOTE =
  'This page advanced across stored events withheld from the licensed response or detected before since; continue with nextCursor until hasMore is false.';

/** The parts of one ChangeFeed response. */
export interface ChangeFeedParts {
  /** Event bodies as stored, already serialized through the change-event schema; newest first. */
  bodies: readonly Buffer[];
  datasetRevision: string;
  since: string;
  windowStart: string;
  snapshotMaxId: number;
  hasMore: boolean;
  nextCursor: string | null;
  note: string | null;
}

/** Returns the response bytes; the event bodies are copied, never parsed or re-serialized. */
export function changeFeedEnvelope(parts: ChangeFeedParts): Buffer {
  const head = `{"changes":[`;
  const tail =
    `],"count":${parts.bodies.length},"datasetRevision":${JSON.stringify(parts.datasetRevision)}` +
    `,"since":${JSON.stringify(parts.since)},"windowStart":${JSON.stringify(parts.windowStart)}` +
    `,"snapshotMaxId":${parts.snapshotMaxId},"hasMore":${parts.hasMore},"nextCursor":${JSON.stringify(parts.nextCursor)}` +
    `,"scopeNote":${JSON.stringify(CHANGE_SCOPE_NOTE)},"note":${JSON.stringify(parts.note)}}`;
  const chunks: Buffer[] = [Buffer.from(head)];
  parts.bodies.forEach((body, index) => {
    if (index > 0) chunks.push(COMMA);
    chunks.push(body);
  });
  chunks.push(Buffer.from(tail));
  return Buffer.concat(chunks);
}

const COMMA = Buffer.from(',');
