/**
 * `node --import tsx scripts/bench/bench-replay.ts [--scale N] [--rounds N]`: `hra quotes replay --verify`
 * over the evidence archive of a published-scale `links check`. The check runs as the links bench runs it
 * (bench-links.ts: `hra synth --seed 1`, every URL on a `.test` host, the fixture's quote pages), with
 * `--archive`; then each round times the replay and samples, every 50 ms, the resident memory of the
 * replay's process and of its extraction children (/proc). Prints a Markdown section for BENCHMARKS.md.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { loadCorpus } from '../../build/corpus/load-corpus.ts';
import { readProcessRss } from '../../build/quotes/read-process-rss.ts';
import { startLinkFixture } from '../loopback/link-fixture-proxy.ts';
import { CHECK_FLAGS, FIXTURE_DELAY_MS, moveToTestHosts } from './bench-links.ts';
import { createBenchQuotePages } from './bench-quote-pages.ts';
import { describeMachine } from './describe-machine.ts';
import { hraCommand, run } from './measure-build.ts';

const AT = '2026-11-23T06:00:00Z';
const SAMPLE_MS = 50;

/** One timed replay. */
export interface ReplayRound {
  seconds: number;
  peakMainBytes: number;
  peakTotalBytes: number;
  summary: string;
}

/** The ids of every process below `pid` (the extraction children, and a launcher's child if there is one). */
function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Field 4, after the parenthesised command (which may hold spaces), is the parent's pid.
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while /proc was read.
    }
  }
  const found: number[] = [];
  const below = (parent: number) => {
    for (const [id, ppid] of parents) {
      if (ppid !== parent) continue;
      found.push(id);
      below(id);
    }
  };
  below(pid);
  return found;
}

/** Whether process `pid` is a page extraction child (create-page-text-extractor.ts forks page-text-child). */
function isExtractionChild(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('page-text-child');
  } catch {
    return false;
  }
}

/** Runs one `quotes replay --verify`, sampling its memory and its children's. */
export function measureReplay(args: readonly string[], cwd: string): Promise<ReplayRound> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    let peakMainBytes = 0;
    let peakTotalBytes = 0;
    const timer = setInterval(() => {
      const pid = child.pid;
      if (pid === undefined) return;
      // The replay's own processes (the launcher, the CLI) apart from its page extraction children.
      let main = readProcessRss(pid) ?? 0;
      let total = main;
      for (const id of descendantsOf(pid)) {
        const rss = readProcessRss(id) ?? 0;
        total += rss;
        if (!isExtractionChild(id)) main += rss;
      }
      peakMainBytes = Math.max(peakMainBytes, main);
      peakTotalBytes = Math.max(peakTotalBytes, total);
    }, SAMPLE_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(timer);
      if (code !== 0) return reject(new Error(`quotes replay --verify exited ${code}: ${stderr.trim().split('\n').at(-1)}`));
      resolve({ seconds: (performance.now() - started) / 1000, peakMainBytes, peakTotalBytes, summary: stdout.trim().split('\n')[0] ?? '' });
    });
  });
}

function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const flag = (name: string, fallback: number) => {
    const at = argv.indexOf(name);
    return at < 0 ? fallback : Number(argv[at + 1]);
  };
  const scale = flag('--scale', 1);
  const rounds = flag('--rounds', 3);
  const root = join(import.meta.dirname, '..', '..');
  const progress = (line: string) => process.stderr.write(`${line}\n`);
  const work = mkdtempSync(join(tmpdir(), 'hra-bench-replay-'));
  try {
    const hra = hraCommand(root);
    const corpus = join(work, 'corpus');
    const archive = join(work, 'archive');
    await run(process.execPath, [...hra, 'synth', '--seed', '1', '--out', corpus, '--scale', String(scale)], root, progress);
    moveToTestHosts(corpus);
    const pages = await createBenchQuotePages(loadCorpus(corpus), AT.slice(0, 10));
    const fixture = await startLinkFixture({ delayMs: FIXTURE_DELAY_MS, log: false, answer: pages.answer });
    const checkStarted = performance.now();
    try {
      await run(process.execPath, [...hra, 'links', 'check', '--corpus', corpus, '--at', AT, '--max-age-days', '0', '--proxy', fixture.proxyUrl, ...CHECK_FLAGS, '--archive', archive], root, progress);
    } finally {
      await fixture.close();
    }
    const checkSeconds = (performance.now() - checkStarted) / 1000;
    const loadAtStart = loadavg()[0] ?? 0;
    const measured: ReplayRound[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const one = await measureReplay([...hra, 'quotes', 'replay', '--corpus', corpus, '--archive', archive, '--verify'], root);
      progress(`bench: replay round ${round + 1}: ${one.seconds.toFixed(1)} s, ${(one.peakMainBytes / 1e6).toFixed(0)} MB main, ${(one.peakTotalBytes / 1e6).toFixed(0)} MB with children`);
      measured.push(one);
    }
    const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
    const seconds = measured.map((one) => one.seconds).sort((a, b) => a - b);
    const lines = [
      `### Replay, scale ${scale} (\`node --import tsx scripts/bench/bench-replay.ts --scale ${scale}\`)`,
      '',
      `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${describeMachine()}; 1-minute load ${loadAtStart.toFixed(1)} at the start, ${(loadavg()[0] ?? 0).toFixed(1)} at the end.`,
      '',
      `\`hra quotes replay --verify\` over the archive of one \`links check\` as the links bench runs it (${pages.quotes.toLocaleString('en-US')} amount quotes on ${pages.htmlPages.toLocaleString('en-US')} HTML pages and ${pages.pdfPages.toLocaleString('en-US')} PDFs; the check took ${checkSeconds.toFixed(0)} s; archive ${mb(bytesUnder(archive))}); ${rounds} rounds, memory sampled every ${SAMPLE_MS} ms.`,
      '',
      '| round | duration | peak RSS, the replay\'s own processes | peak RSS, with its extraction children | result |',
      '|---|---|---|---|---|',
      ...measured.map((one, index) => `| ${index + 1} | ${one.seconds.toFixed(1)} s | ${mb(one.peakMainBytes)} | ${mb(one.peakTotalBytes)} | ${one.summary} |`),
      '',
      `Median ${seconds[Math.floor(seconds.length / 2)]!.toFixed(1)} s (spread ${seconds[0]!.toFixed(1)}-${seconds.at(-1)!.toFixed(1)} s).`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// Run as a script only, so the measurement can be imported.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
