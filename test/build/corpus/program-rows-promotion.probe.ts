/**
 * Run by program-rows-die-young.test.ts in a child started with --expose-gc: reads an evidence-sized NDJSON
 * file and keeps its rows (as loadCorpus does, which teaches V8 that the reader's allocations live on), then
 * checks program files and drops their rows, and prints how much the old generation grew meanwhile and how
 * many full collections ran (a full collection would hide the growth), as one JSON line.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { createProgramFileCheck } from '../../../build/corpus/check-program-file.ts';
import { readNdjson } from '../../../build/corpus/read-corpus-file.ts';

const [dir, demoCorpus] = process.argv.slice(2) as [string, string];
const EVIDENCE_LINES = 150_000;
const FILES = 3_000;
const ROWS_PER_FILE = 20;

const evidence = join(dir, 'link-checks.ndjson');
writeFileSync(evidence, Array.from({ length: EVIDENCE_LINES }, (_, index) => `{"url":"http://site${index % 50}.test/page/${index}","checkedAt":"2026-11-01","outcome":"live","httpStatus":200}\n`).join(''));
const demoFile = readdirSync(join(demoCorpus, 'programs')).filter((name) => name.endsWith('.ndjson')).sort()[0] as string;
const template = JSON.parse(readFileSync(join(demoCorpus, 'programs', demoFile), 'utf8').split('\n')[0] as string) as Record<string, unknown>;
mkdirSync(join(dir, 'programs'));
const paths = Array.from({ length: FILES }, (_, file) => {
  const path = join(dir, 'programs', `city-${file}.ndjson`);
  writeFileSync(path, Array.from({ length: ROWS_PER_FILE }, (_, row) => `${JSON.stringify({ ...template, id: `program-${file}-${row}` })}\n`).join(''));
  return path;
});

const kept = readNdjson(evidence, dir, 'link-checks.ndjson', []);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('start with --expose-gc');
gc();
gc();
const oldBytes = () => getHeapSpaceStatistics().filter((space) => space.space_name === 'old_space' || space.space_name === 'large_object_space').reduce((sum, space) => sum + space.space_used_size, 0);
let fullCollections = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (((entry as { detail?: unknown }).detail as { kind?: number } | undefined)?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) fullCollections += 1;
});
observer.observe({ entryTypes: ['gc'] });
const check = createProgramFileCheck({ vocabularies: undefined, correctionsFile: 'corrections.ndjson' });
const before = oldBytes();
let rows = 0;
let problems = 0;
for (const [index, path] of paths.entries()) {
  const checked = check({ slug: `city-${index}`, path, root: dir, file: `programs/city-${index}.ndjson`, corrections: [] });
  rows += checked.rows.length;
  problems += checked.problems.length;
}
const grewBytes = oldBytes() - before;
// The observer reports after the current task.
setImmediate(() => {
  observer.disconnect();
  process.stdout.write(`${JSON.stringify({ kept: kept.length, rows, problems, grewBytes, fullCollections, rowBytes: readFileSync(paths[0] as string).length * FILES })}\n`);
});
