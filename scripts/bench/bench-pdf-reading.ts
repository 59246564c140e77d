/**
 * CPU per document of the PDF reading (read-pdf-pages.ts), this checkout's against another's, side by side:
 * each round reads every document once in a fresh process per checkout, the two in alternating order, and
 * the process's own CPU clock (process.cpuUsage, every thread) is read around each document. Also each
 * reading process's peak RSS (under a page-text child's heap cap), and whether the two checkouts gave the same text, page for page.
 *
 * Usage: node --import tsx scripts/bench/bench-pdf-reading.ts --before CHECKOUT [--rounds N] [--fixture N] [--heap-mb N] DIR...
 * CHECKOUT is a tree holding build/ and node_modules (e.g. `git archive REV build | tar -x -C DIR` and a
 * node_modules link). `--fixture N` adds the links benchmark's first N quote PDFs (bench-quote-pages.ts) as
 * their own set. Prints JSON.
 */
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DEFAULT_EXTRACT_MAX_HEAP_MB, DEFAULT_EXTRACT_SEMI_SPACE_MB } from '../../build/quotes/create-page-text-extractor.ts';
import { pdfStating } from './bench-quote-pages.ts';
import { pdfSizeFor } from './bench-page-shapes.ts';
import { median, spreadOf } from './round-statistics.ts';

/** What one reading process reports. */
interface ChildReport {
  cpuMs: number[];
  digests: string[];
  maxRssMb: number;
}

const HERE = resolve(fileURLToPath(new URL('../..', import.meta.url)));

if (process.argv[2] === '--child') {
  // A reading process: the checkout's reader, the documents in the list, one at a time as a page-text child reads them.
  const [root, list] = process.argv.slice(3) as [string, string];
  const { readPdfPages } = (await import(pathToFileURL(join(root, 'build/quotes/read-pdf-pages.ts')).href)) as typeof import('../../build/quotes/read-pdf-pages.ts');
  const report: ChildReport = { cpuMs: [], digests: [], maxRssMb: 0 };
  const files = readFileSync(list, 'utf8').split('\n').filter(Boolean);
  // pdf.js sets up its worker on the first document: a cost of the process's start, not of that document.
  if (files.length > 0) await readPdfPages(new Uint8Array(readFileSync(files[0]!)));
  for (const file of files) {
    const data = new Uint8Array(readFileSync(file));
    const start = process.cpuUsage();
    const answer = await readPdfPages(data);
    const used = process.cpuUsage(start);
    report.cpuMs.push((used.user + used.system) / 1000);
    report.digests.push(createHash('sha256').update(JSON.stringify(answer)).digest('hex'));
  }
  report.maxRssMb = process.resourceUsage().maxRSS / 1024;
  process.send!(report);
  process.exit(0);
}

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

const before = option('--before');
if (before === undefined) throw new Error('bench-pdf-reading: --before CHECKOUT is required');
const rounds = Number(option('--rounds') ?? 3);
const fixtureCount = Number(option('--fixture') ?? 0);
// A page-text child's heap cap by default; a document past it ends the run, so a set holding one needs more.
const heapMb = Number(option('--heap-mb') ?? DEFAULT_EXTRACT_MAX_HEAP_MB);
const valueFlags = new Set(['--before', '--rounds', '--fixture', '--heap-mb']);
const dirs = process.argv.slice(2).filter((arg, index, all) => !valueFlags.has(arg) && !valueFlags.has(all[index - 1]!));
const work = mkdtempSync(join(tmpdir(), 'bench-pdf-reading-'));

const sets: Array<{ name: string; files: string[] }> = [];
const real = dirs.flatMap((dir) => readdirSync(dir).filter((name) => name.toLowerCase().endsWith('.pdf')).sort().map((name) => join(dir, name)));
if (real.length > 0) sets.push({ name: 'real', files: real });
if (fixtureCount > 0) {
  const files: string[] = [];
  for (let index = 0; files.length < fixtureCount; index++) {
    const url = `http://bench.example/quote-${index}.pdf`;
    const pdf = await pdfStating([`The grant pays up to $${5000 + index * 25} per home.`, 'Apply by the end of the year.'], pdfSizeFor(url));
    if (pdf === undefined) continue;
    files.push(join(work, `fixture-${index}.pdf`));
    writeFileSync(files.at(-1)!, pdf);
  }
  sets.push({ name: 'fixture', files });
}

/**
 * The `--import` that loads pdf.js before tsx, as a page-text child under tsx does (create-page-text-extractor.ts):
 * through tsx's loader pdf.js's 3 MB of JavaScript took about 190 MiB of heap, which under the child's heap cap
 * made collection, not reading, the figure. A checkout from before load-pdfjs.ts preloads the two files plainly, as
 * its child did.
 */
async function pdfjsPreloadOf(root: string): Promise<string> {
  const worker = import.meta.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs');
  const pdf = import.meta.resolve('pdfjs-dist/legacy/build/pdf.mjs');
  const loader = join(root, 'build/quotes/load-pdfjs.ts');
  const source = existsSync(loader)
    ? ((await import(pathToFileURL(loader).href)) as typeof import('../../build/quotes/load-pdfjs.ts')).pdfjsPreloadModule(worker, pdf)
    : `await import(${JSON.stringify(worker)}); await import(${JSON.stringify(pdf)});`;
  return `data:text/javascript,${encodeURIComponent(source)}`;
}

async function read(root: string, files: string[]): Promise<ChildReport> {
  const list = join(work, 'list.txt');
  writeFileSync(list, files.join('\n'));
  const execArgv = [`--max-old-space-size=${heapMb}`, `--max-semi-space-size=${DEFAULT_EXTRACT_SEMI_SPACE_MB}`, '--import', await pdfjsPreloadOf(root), '--import', 'tsx'];
  return new Promise((done, fail) => {
    const child = fork(fileURLToPath(import.meta.url), ['--child', root, list], { execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    child.once('message', (report: ChildReport) => done(report));
    child.once('exit', (code) => (code === 0 ? undefined : fail(new Error(`reading child exited with ${code}`))));
  });
}

const variants = { before: resolve(before), after: HERE };
const results = [];
try {
  for (const set of sets) {
    const reports: Record<'before' | 'after', ChildReport[]> = { before: [], after: [] };
    for (let round = 0; round < rounds; round++) {
      // Alternating which goes first, so a load that rises or falls through the run weighs on both alike.
      const order = round % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
      for (const variant of order) reports[variant].push(await read(variants[variant], set.files));
    }
    const perDocument = (variant: 'before' | 'after') => set.files.map((_, index) => median(reports[variant].map((report) => report.cpuMs[index]!)));
    const totals = (variant: 'before' | 'after') => reports[variant].map((report) => report.cpuMs.reduce((sum, ms) => sum + ms, 0));
    const beforeDocs = perDocument('before');
    const afterDocs = perDocument('after');
    const differing = set.files.filter((_, index) => reports.before[0]!.digests[index] !== reports.after[0]!.digests[index]);
    results.push({
      set: set.name,
      documents: set.files.length,
      rounds,
      cpuMsPerDocument: { before: spreadOf(beforeDocs), after: spreadOf(afterDocs) },
      cpuMsPerRound: { before: spreadOf(totals('before')), after: spreadOf(totals('after')) },
      // Per round, the two readings of that round: the ratio a shared machine's load weighs least on.
      afterOverBefore: spreadOf(totals('after').map((ms, round) => ms / totals('before')[round]!)),
      peakRssMb: { before: Math.max(...reports.before.map((report) => report.maxRssMb)), after: Math.max(...reports.after.map((report) => report.maxRssMb)) },
      differingText: differing.map((file) => file.slice(file.lastIndexOf('/') + 1)),
    });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(JSON.stringify(results, null, 2));
