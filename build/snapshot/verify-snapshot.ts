/** `hra verify`: the auditor's check that a snapshot is intact and that the corpus reproduces it exactly. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Corpus } from '../corpus/corpus-types.ts';
import { computeRevision } from '../revision/compute-revision.ts';
import { inspectSnapshot, openSnapshotFile, type CheckResult } from './inspect-snapshot.ts';
import { sha256FileChunked } from './snapshot-checksum.ts';
import { writeSnapshot } from './write-snapshot.ts';

/**
 * Runs, in order, `format`, `integrity`, `content`, `revision` (the corpus digests to the recorded
 * revision) and `bytes` (a fresh build of the corpus is byte-identical to the file). Stops at the first
 * failure. `onProgress` hears each check end, and how far the long ones (content, bytes) have got.
 */
export function verifySnapshot(file: string, corpus: Corpus, onProgress: (message: string) => void = () => {}): CheckResult[] {
  const opened = openSnapshotFile(file);
  if ('error' in opened) return [opened.error];
  let recordedRevision: string | undefined;
  const results = (() => {
    try {
      const structural = inspectSnapshot(opened.db, { deep: true, onProgress });
      if (structural.every((result) => result.ok)) {
        recordedRevision = (opened.db.prepare("SELECT value FROM meta WHERE key = 'revision'").get() as { value: string } | undefined)?.value;
      }
      return structural;
    } finally {
      opened.db.close();
    }
  })();
  if (results.some((result) => !result.ok)) return results;

  let started = Date.now();
  const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  const computed = computeRevision(corpus);
  if (computed.revision !== recordedRevision) {
    return [...results, { check: 'revision', ok: false, reason: `corpus digests to ${computed.revision}, the file records ${recordedRevision ?? '(none)'}` }];
  }
  results.push({ check: 'revision', ok: true });
  onProgress(`verify: revision ok (${seconds()})`);

  started = Date.now();
  onProgress('verify: bytes: rebuilding the snapshot from the corpus to compare');
  const scratch = mkdtempSync(join(tmpdir(), 'hra-verify-'));
  try {
    const rebuilt = join(scratch, 'rebuilt.sqlite');
    writeSnapshot(corpus, computed, rebuilt, (message) => onProgress(`verify: bytes: ${message}`));
    const expected = sha256File(rebuilt);
    const actual = sha256File(file);
    results.push(expected === actual
      ? { check: 'bytes', ok: true }
      : { check: 'bytes', ok: false, reason: `file sha256 ${actual} differs from a fresh build's ${expected}` });
    if (expected === actual) onProgress(`verify: bytes ok (${seconds()})`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return results;
}

/** SHA-256 hex of a file's bytes, read in chunks (readFileSync refuses files over 2 GiB, as at 570,000 rows). */
export function sha256File(file: string): string {
  return sha256FileChunked(file);
}
