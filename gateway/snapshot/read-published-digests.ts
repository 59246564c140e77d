/**
 * Reads what a snapshot's sidecars record (build/snapshot/snapshot-checksum.ts, snapshot-segments.ts) and
 * decides which digests the content check compares: the bound tree when the `.sha256` names the segments
 * file's digest and that file is present and matches it, else the one whole-file digest. It returns a
 * refusal instead of throwing so that start-snapshot-hash.ts, which must stay free of the gateway's heavier
 * imports, can choose the ranges to hash early with the very rule the check applies.
 *
 * Why the bound tree is as strong as the whole-file digest: docs/decisions.md "The start-up hash".
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { checksumFileOf, parseChecksumFile } from '../../build/snapshot/snapshot-checksum.ts';
import { parseSegmentDigests, segmentsFileOf, type SegmentDigests } from '../../build/snapshot/snapshot-segments.ts';

/** The digests a snapshot's sidecars vouch for, once read and bound to each other. */
export interface PublishedDigests {
  /** The whole file's SHA-256, the `.sha256`'s first line. */
  readonly recorded: string;
  /**
   * The segments file when the `.sha256` binds it (its second line is that file's SHA-256, and they match):
   * every piece it names must match, and the whole file need not be hashed in one stream.
   */
  readonly tree: SegmentDigests | undefined;
  /**
   * A segments file the `.sha256` does not bind (an older build's): it vouches for nothing, and only names
   * where a file that fails the whole-file digest differs.
   */
  readonly unboundSegments: SegmentDigests | undefined;
}

/** Why the sidecars refuse the file, named as the check that fails (`checksum` or `content`). */
export interface PublishedDigestsRefusal {
  readonly check: 'checksum' | 'content';
  readonly reason: string;
}

/** Reads and binds the sidecars of `file` (a real path) of `size` bytes, or says why they refuse it. */
export function readPublishedDigests(file: string, size: number): { ok: true; digests: PublishedDigests } | { ok: false; refusal: PublishedDigestsRefusal } {
  const checksumFile = checksumFileOf(file);
  const segmentsFile = segmentsFileOf(file);
  const refuse = (check: PublishedDigestsRefusal['check'], reason: string) => ({ ok: false as const, refusal: { check, reason } });
  let text: string;
  try {
    text = readFileSync(checksumFile, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    return refuse('checksum', missing ? `no checksum file ${checksumFile} (hra build writes it beside the snapshot)` : `cannot read ${checksumFile}: ${(error as Error).message}`);
  }
  const checksums = parseChecksumFile(text);
  if (checksums === undefined) return refuse('checksum', `${checksumFile} is not one sha256sum line, or two whose second names the ${segmentsFile.slice(segmentsFile.lastIndexOf('/') + 1)}`);
  let bytes: Buffer;
  try {
    bytes = readFileSync(segmentsFile);
  } catch (error) {
    // No segments file: the whole file is hashed in one stream against the first line, which is what
    // `sha256sum -c --ignore-missing` checks of a `.sha256` that binds one.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, digests: { recorded: checksums.sha256, tree: undefined, unboundSegments: undefined } };
    return refuse('checksum', `cannot read ${segmentsFile}: ${(error as Error).message}`);
  }
  const segments = parseSegmentDigests(bytes.toString('utf8'));
  if (segments === undefined) return refuse('checksum', `${segmentsFile} is not a segments file`);
  if (segments.sha256 !== checksums.sha256) return refuse('checksum', `${segmentsFile} records sha256 ${segments.sha256}, ${checksumFile} records ${checksums.sha256}`);
  if (segments.fileBytes !== size) return refuse('content', `file is ${size} bytes, ${segmentsFile} records ${segments.fileBytes}`);
  if (checksums.segmentsSha256 === undefined) return { ok: true, digests: { recorded: checksums.sha256, tree: undefined, unboundSegments: segments } };
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== checksums.segmentsSha256) return refuse('checksum', `${segmentsFile} sha256 ${actual} does not match ${checksums.segmentsSha256} recorded in ${checksumFile}`);
  return { ok: true, digests: { recorded: checksums.sha256, tree: segments, unboundSegments: undefined } };
}
