/**
 * `npm run bench -- --hostile-pages`: the real `hra links check`, at its default settings, over pages built
 * to exhaust it, served on loopback through the fixture proxy of the tests: a 19.8 MB PDF whose content
 * stream inflates to 19 GiB, 5 MiB of mis-nested formatting tags gzipped to a few KB, a page that trickles
 * a byte at a time, 32 bodies over their cap at once (half declared by Content-Length, half not), and
 * healthy pages beside them. Reports the peak RSS of the whole process tree (the launcher, the run and
 * its extraction children, summed, sampled from /proc), the run's longest event-loop block, and each
 * page's quote outcome.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { startLinkFixture } from '../loopback/link-fixture-proxy.ts';
import { writeLinkTestCorpus } from '../../test/support/link-test-corpus.ts';
import { gzipped, makeInflatingPdf, makeMisnestedHtml } from '../../test/support/make-hostile-pages.ts';
import { describeMachine } from './describe-machine.ts';
import { hraCommand } from './measure-build.ts';
import { watchProcessTree } from './sample-process-tree.ts';

const AT = '2026-11-23T06:00:00Z';
const QUOTE = 'Eligible homeowners may receive up to $10,000 for home repairs.';
const MIB = 1024 * 1024;
/** Over both caps (5 MiB HTML, 20 MiB PDF). */
const OVER_CAP_BYTES = 24 * MIB;
const OVER_CAP_PAGES = 32;
const HEALTHY_PAGES = 4;
const SAMPLE_MS = 20;
/** Runs per figure: the spread matters as much as the figure. */
const RUNS = 3;

/** One hostile or healthy page, by the kind the report groups it under. */
interface BenchPage {
  kind: string;
  url: string;
  answer(request: IncomingMessage, response: ServerResponse): void;
}

/** One measured run of `hra links check`. */
interface HostileRun {
  seconds: number;
  peakTreeRssBytes: number;
  /** Each process's RSS at the tree's peak, in tree order (launcher or run first). */
  atPeakBytes: number[];
  mostProcesses: number;
  blockCpuMs: number | undefined;
  blockWallMs: number | undefined;
  outcomes: Map<string, Map<string, number>>;
}

/** Runs the phase and returns its Markdown section. */
export async function benchHostilePages(root: string, work: string, command: string, progress: (line: string) => void): Promise<string> {
  const began = performance.now();
  const loadAtStart = loadavg()[0] ?? 0;
  const pages = hostilePages();
  const byUrl = new Map(pages.map((page) => [page.url, page]));
  const corpus = writeBenchCorpus(join(work, 'hostile-corpus'), pages.map((page) => page.url));
  const runs: HostileRun[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    writeFileSync(join(corpus, 'evidence/quote-checks.ndjson'), '');
    const fixture = await startLinkFixture({
      log: false,
      answer(request, response, target) {
        const page = byUrl.get(target.href);
        if (page === undefined) return false;
        page.answer(request, response);
        return true;
      },
    });
    try {
      const args = [...hraCommand(root), 'links', 'check', '--corpus', corpus, '--at', AT, '--proxy', fixture.proxyUrl, '--dry-run', '--json', ...pages.flatMap((page) => ['--url', page.url])];
      const measured = await runTree(args, root);
      const outcomes = new Map<string, Map<string, number>>();
      for (const line of measured.stdout.split('\n')) {
        if (!line.startsWith('{"city"')) continue;
        const check = JSON.parse(line) as { url: string; outcome: string; reason?: string };
        const kind = byUrl.get(check.url)?.kind ?? 'other';
        const key = `${check.outcome}${check.reason === undefined ? '' : ` (${check.reason.replace(/\d+ bytes/, 'n bytes')})`}`;
        const counts = outcomes.get(kind) ?? new Map<string, number>();
        counts.set(key, (counts.get(key) ?? 0) + 1);
        outcomes.set(kind, counts);
      }
      const block = /^links: longest event-loop block (\d+) ms of CPU \((\d+) ms of wall-clock delay\)$/m.exec(measured.stderr);
      runs.push({ ...measured, blockCpuMs: block ? Number(block[1]) : undefined, blockWallMs: block ? Number(block[2]) : undefined, outcomes });
      const last = runs.at(-1)!;
      progress(`bench: hostile pages run ${index + 1}: ${last.seconds.toFixed(1)} s, peak tree RSS ${(last.peakTreeRssBytes / MIB).toFixed(0)} MiB, longest block ${last.blockCpuMs} ms CPU / ${last.blockWallMs} ms wall`);
    } finally {
      await fixture.close();
    }
  }
  return render({ command, runs, load: `1-minute load average ${loadAtStart.toFixed(1)} at the start, ${(loadavg()[0] ?? 0).toFixed(1)} at the end`, elapsedSeconds: (performance.now() - began) / 1000 });
}

/** The pages, each on its own `.test` host so that the per-host limit does not queue them behind each other. */
function hostilePages(): BenchPage[] {
  const send = (headers: Record<string, string>, body: Buffer) => (request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(200, { ...headers, 'content-length': String(body.length) });
    response.end(request.method === 'HEAD' ? undefined : body);
  };
  const pdfBomb = makeInflatingPdf(19 * 1024);
  const tagBomb = gzipped(makeMisnestedHtml(5 * MIB - 4096));
  const healthy = Buffer.from(`<!doctype html><title>Home Repair</title><h1>Home Repair</h1><p>${QUOTE}</p>`);
  const pages: BenchPage[] = [
    { kind: `PDF bomb (${(pdfBomb.length / 1e6).toFixed(1)} MB inflating to 19 GiB)`, url: 'http://pdf-bomb.test/guidelines.pdf', answer: send({ 'content-type': 'application/pdf' }, pdfBomb) },
    {
      kind: `tag bomb (${(tagBomb.length / 1e3).toFixed(1)} KB gzipped, 5 MiB of mis-nested tags)`,
      url: 'http://tag-bomb.test/program',
      answer: send({ 'content-type': 'text/html', 'content-encoding': 'gzip' }, tagBomb),
    },
    { kind: 'trickle (a byte every 200 ms)', url: 'http://trickle.test/program', answer: trickle },
  ];
  for (let index = 1; index <= OVER_CAP_PAGES; index += 1) {
    const declared = index % 2 === 0;
    pages.push({
      kind: `over cap, 24 MiB ${declared ? 'with' : 'without'} Content-Length`,
      url: `http://over-cap-${index}.test/report${index % 4 < 2 ? '.pdf' : '.html'}`,
      answer: overCap(index % 4 < 2 ? 'application/pdf' : 'text/html', declared),
    });
  }
  for (let index = 1; index <= HEALTHY_PAGES; index += 1) {
    pages.push({ kind: 'healthy page', url: `http://healthy-${index}.test/program`, answer: send({ 'content-type': 'text/html; charset=utf-8' }, healthy) });
  }
  return pages;
}

function trickle(request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/html' });
  if (request.method === 'HEAD') return void response.end();
  response.write('<!doctype html><p>');
  const timer = setInterval(() => response.write('.'), 200);
  response.once('close', () => clearInterval(timer));
}

/** A body of OVER_CAP_BYTES sent in 64 KiB chunks as the client takes them. */
function overCap(type: string, declared: boolean): (request: IncomingMessage, response: ServerResponse) => void {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const head = Buffer.from(type === 'application/pdf' ? '%PDF-1.4\n' : '<!doctype html><p>');
  return (request, response) => {
    response.writeHead(200, { 'content-type': type, ...(declared ? { 'content-length': String(OVER_CAP_BYTES) } : {}) });
    if (request.method === 'HEAD') return void response.end();
    let sent = head.length;
    response.write(head);
    const pump = () => {
      while (sent < OVER_CAP_BYTES) {
        const part = chunk.subarray(0, Math.min(chunk.length, OVER_CAP_BYTES - sent));
        sent += part.length;
        if (!response.write(part)) return void response.once('drain', pump);
      }
      response.end();
    };
    response.once('close', () => (sent = OVER_CAP_BYTES));
    pump();
  };
}

/** The link test corpus with one alpha program per page, each with a fresh amount review quoting QUOTE. */
function writeBenchCorpus(dir: string, urls: readonly string[]): string {
  const corpus = writeLinkTestCorpus(dir, { extraUrls: urls });
  const alpha = join(corpus, 'programs/alpha.ndjson');
  const rows = readFileSync(alpha, 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
  const priced = rows.map((row) => (String(row.id).startsWith('link-') ? { ...row, maxAmount: 10000, maxAmountLabel: 'Up to $10,000', maxAmountLabel_es: 'Hasta $10,000' } : row));
  writeFileSync(alpha, priced.map((row) => `${JSON.stringify(row)}\n`).join(''));
  const reviews = urls.map((_, index) => ({
    city: 'alpha', programId: `link-${index + 1}`, reviewedAt: '2026-11-01', kind: 'amount', identityMatch: true, amountQuote: QUOTE, quoteFoundInPage: true,
  }));
  appendFileSync(join(corpus, 'evidence/source-reviews.ndjson'), reviews.map((row) => `${JSON.stringify(row)}\n`).join(''));
  return corpus;
}

/** Runs `node <args>` with the event-loop probe on, summing the RSS of it and all its descendants every SAMPLE_MS. */
function runTree(args: readonly string[], cwd: string): Promise<{ stdout: string; stderr: string; seconds: number; peakTreeRssBytes: number; atPeakBytes: number[]; mostProcesses: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HRA_REPORT_EVENT_LOOP_DELAY: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const tree = watchProcessTree(child.pid!, SAMPLE_MS);
    child.once('error', reject);
    child.once('exit', (code) => {
      const peak = tree.stop();
      if (code !== 0) return reject(new Error(`hra links check failed (${code}): ${stderr.trim().split('\n').at(-1) ?? ''}`));
      resolve({ stdout, stderr, seconds: (performance.now() - started) / 1000, peakTreeRssBytes: peak.sum, atPeakBytes: peak.each, mostProcesses: peak.mostProcesses });
    });
  });
}

function render(report: { command: string; runs: HostileRun[]; load: string; elapsedSeconds: number }): string {
  const mib = (bytes: number) => `${(bytes / MIB).toFixed(0)} MiB`;
  const spread = (values: number[], unit: (value: number) => string) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `${unit(sorted[Math.floor(sorted.length / 2)]!)} (${unit(sorted[0]!)}-${unit(sorted.at(-1)!)})`;
  };
  const ms = (value: number) => `${value} ms`;
  const lines = [
    `### Hostile pages (\`${report.command}\`)`,
    '',
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${describeMachine()}; ${report.load}; ${report.elapsedSeconds.toFixed(0)} s in all.`,
    '',
    `\`hra links check --dry-run --json\` at its default settings, ${report.runs.length} runs, median (min-max):`,
    '',
    '| figure | value | target |',
    '|---|---|---|',
    `| peak RSS of the process tree (sum over the launcher, the run and its children, sampled every ${SAMPLE_MS} ms) | ${spread(report.runs.map((run) => run.peakTreeRssBytes), mib)} | at most 1024 MiB |`,
    `| longest event-loop block of the run, the main thread's CPU time between two turns of a 10 ms timer (10 ms ticks) | ${spread(report.runs.map((run) => run.blockCpuMs ?? Number.NaN), ms)} | at most 100 ms |`,
    `| the same block as wall-clock delay (counts other processes' turns on a loaded machine) | ${spread(report.runs.map((run) => run.blockWallMs ?? Number.NaN), ms)} | |`,
    `| duration | ${spread(report.runs.map((run) => Math.round(run.seconds)), (value) => `${value} s`)} | |`,
    `| most processes in the tree at once | ${Math.max(...report.runs.map((run) => run.mostProcesses))} | |`,
    `| each process at the highest peak (tree order: launcher or run, then below it) | ${[...report.runs].sort((a, b) => b.peakTreeRssBytes - a.peakTreeRssBytes)[0]!.atPeakBytes.map(mib).join(' + ')} | |`,
    '',
    'Quote outcomes of the last run, by page:',
    '',
  ];
  for (const [kind, counts] of report.runs.at(-1)?.outcomes ?? []) {
    lines.push(`- ${kind}: ${[...counts].map(([outcome, n]) => `${n} ${outcome}`).join('; ')}`);
  }
  return `${lines.join('\n')}\n`;
}
