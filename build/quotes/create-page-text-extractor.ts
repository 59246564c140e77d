/**
 * Extracts fetched pages' text (extractPageText, HTML and PDF alike) in child processes, so that a page
 * built to exhaust its reader can only take a child down: a child is killed at a wall-clock limit per page
 * and when its resident memory (heap, pdf.js's buffers, everything: /proc/<pid>/status) passes a limit,
 * and a fresh one is started for the next page. Children start on demand, sit unref'd while idle, are
 * killed on close and when this process exits, and exit by themselves when this process's channel closes.
 *
 * The child file is `page-text-child.ts` under tsx and `page-text-child.js` once compiled: its name comes
 * from this module's own extension. Under tsx the child is started with tsx's loader, after pdf.js's two
 * files (about 3 MB of JavaScript), which through the loader took seconds more to load.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FetchedPage, PageText } from './extract-page-text.ts';
import type { PageJudgement } from './judge-page-text.ts';
import { pdfjsPreloadModule } from './load-pdfjs.ts';
import type { PageTextReply, PageTextRequest } from './page-text-protocol.ts';
import { readProcessRss } from './read-process-rss.ts';

/** Limits of page extraction. */
export interface PageTextExtractorOptions {
  /** Pages extracted at once, each in its own child process (default DEFAULT_EXTRACT_CHILDREN). */
  children?: number;
  /** Longest one page may take, a child's start included (default DEFAULT_EXTRACT_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Resident memory a child may reach, in MiB (default DEFAULT_EXTRACT_MAX_RSS_MB). */
  maxRssMb?: number;
  /**
   * Resident memory all children together may reach, in MiB (default DEFAULT_EXTRACT_MAX_TOTAL_RSS_MB, and
   * never below maxRssMb): past it the largest child is killed, its page (if any) inconclusive.
   */
  maxTotalRssMb?: number;
  /** Each child's V8 old-generation cap, in MiB (default DEFAULT_EXTRACT_MAX_HEAP_MB); below maxRssMb. */
  maxHeapMb?: number;
  /** How often a busy child's memory is read, in ms (default 5: a bomb can grow by 2 MiB a millisecond). */
  sampleMs?: number;
}

/** Extracts pages until closed. */
export interface PageTextExtractor {
  /**
   * The text of `page`, or why there is none; a page past a limit is `inconclusive` saying which. With
   * `quotes`, a page with text answers their judgement (judge-page-text.ts) instead of the text.
   */
  extract(page: FetchedPage): Promise<PageText>;
  extract(page: FetchedPage, quotes: readonly string[]): Promise<PageText | PageJudgement>;
  /** Kills the children; pages waiting or in progress answer `page extraction stopped`. */
  close(): Promise<void>;
  /** The process ids of the children alive now. */
  pids(): number[];
}

/** 2: extraction shares the machine with the fetching and matching of the run. */
export const DEFAULT_EXTRACT_CHILDREN = 2;
/** 20 s: a text-layer read of a large city guideline PDF takes well under one on an idle core (BENCHMARKS.md). */
export const DEFAULT_EXTRACT_TIMEOUT_MS = 20_000;
/**
 * 352 MiB per child: a 5 MiB HTML page of text peaks near 320 MiB in a child under tsx, and two children at
 * the limit and the run stay under 1 GiB together (BENCHMARKS.md, hostile pages).
 */
export const DEFAULT_EXTRACT_MAX_RSS_MB = 352;
/**
 * 640 MiB for both children together: two pages at once may each take most of a child's limit, but not
 * both at the limit, which would take the run past 1 GiB (BENCHMARKS.md, hostile pages).
 */
export const DEFAULT_EXTRACT_MAX_TOTAL_RSS_MB = 640;
/** 192 MiB: the JavaScript heap's share of a child's memory limit, so V8 collects before the limit is hit. */
export const DEFAULT_EXTRACT_MAX_HEAP_MB = 192;
/**
 * 32 MiB: each of V8's two young-generation halves in a child, at the default heap cap (a sixth of the cap,
 * so a small cap keeps a young generation in proportion). Parsing a 200 KB page allocates a tree that lives
 * until its text is out; with the smaller default halves most of it was copied out of the young generation
 * before it died, and collection took a quarter of a child's time: 32 MiB halves cut the CPU of a fixture
 * page by 18% (25.1 to 20.5 ms, compiled, 3 alternated rounds).
 */
export const DEFAULT_EXTRACT_SEMI_SPACE_MB = 32;

const CHILD_ENTRY = fileURLToPath(new URL(`./page-text-child${extname(fileURLToPath(import.meta.url))}`, import.meta.url));
// pdf.js is preloaded as load-pdfjs.ts loads it, keeping the natives its polyfills would replace.
const PDFJS_PRELOAD = `data:text/javascript,${encodeURIComponent(pdfjsPreloadModule(import.meta.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs'), import.meta.resolve('pdfjs-dist/legacy/build/pdf.mjs')))}`;
const LOADER_ARGS = CHILD_ENTRY.endsWith('.ts') ? ['--import', PDFJS_PRELOAD, '--import', import.meta.resolve('tsx')] : [];
const STDERR_TAIL_CHARS = 300;
/**
 * Pages handed to a child at once: the next waits in the child while it reads the first, so no round trip
 * through the run's event loop sits between two pages (on a loaded machine each costs milliseconds).
 */
const PAGES_PER_CHILD = 2;
const MIB = 1024 * 1024;

interface Job {
  id: number;
  page: FetchedPage;
  quotes: string[] | undefined;
  resolve: (text: PageText | PageJudgement) => void;
}

interface Lane {
  child: ChildProcess;
  ready: boolean;
  /** Pages handed to the child, in order; the first is the one it is reading. */
  jobs: Job[];
  timer: NodeJS.Timeout | undefined;
  stderr: string;
  heapExhausted: boolean;
}

/** Starts an extractor; children start when pages arrive, so an extractor given none costs nothing. */
export function createPageTextExtractor(options: PageTextExtractorOptions = {}): PageTextExtractor {
  const size = options.children ?? DEFAULT_EXTRACT_CHILDREN;
  const timeoutMs = options.timeoutMs ?? DEFAULT_EXTRACT_TIMEOUT_MS;
  const maxRssMb = options.maxRssMb ?? DEFAULT_EXTRACT_MAX_RSS_MB;
  const maxHeapMb = options.maxHeapMb ?? Math.min(DEFAULT_EXTRACT_MAX_HEAP_MB, Math.floor(maxRssMb * 0.6));
  const sampleMs = options.sampleMs ?? 5;
  const semiSpaceMb = Math.max(1, Math.min(DEFAULT_EXTRACT_SEMI_SPACE_MB, Math.floor(maxHeapMb / 6)));
  const maxTotalRssMb = Math.max(maxRssMb, options.maxTotalRssMb ?? DEFAULT_EXTRACT_MAX_TOTAL_RSS_MB);
  if (!Number.isInteger(size) || size < 1) throw new Error(`extraction children must be a whole number of at least 1, got ${size}`);
  if (!(timeoutMs > 0)) throw new Error(`extraction timeout must be a positive number of milliseconds, got ${timeoutMs}`);
  if (!(maxRssMb >= 64)) throw new Error(`extraction memory limit must be at least 64 MiB, got ${maxRssMb}`);
  if (!(maxHeapMb >= 16 && maxHeapMb < maxRssMb)) throw new Error(`extraction heap cap must be at least 16 MiB and below the ${maxRssMb} MiB memory limit, got ${maxHeapMb}`);
  const lanes = new Set<Lane>();
  const waiting: Job[] = [];
  let nextId = 0;
  let closed = false;
  let sampler: NodeJS.Timeout | undefined;
  // A run that exits by any path (process.exit included) must not leave a child parsing a bomb.
  const killAll = () => {
    for (const lane of lanes) lane.child.kill('SIGKILL');
  };
  process.on('exit', killAll);

  /** Answers the page the child is reading; a retired child's other pages go back to the queue's front. */
  function finish(lane: Lane, text: PageText | PageJudgement, retire: boolean): void {
    const job = lane.jobs.shift();
    clearTimeout(lane.timer);
    lane.timer = undefined;
    if (retire) {
      lanes.delete(lane);
      lane.child.kill('SIGKILL');
      waiting.unshift(...lane.jobs.splice(0));
    } else if (lane.jobs.length > 0) {
      startTimer(lane);
    } else {
      idle(lane, true);
    }
    job?.resolve(text);
    pump();
  }

  /** An idle child must not keep a finished run alive; a busy one must. */
  function idle(lane: Lane, yes: boolean): void {
    // stderr is a pipe, so a net.Socket, which has ref and unref.
    const handles = [lane.child, lane.child.channel, lane.child.stderr as Socket | null];
    for (const handle of handles) if (handle) (yes ? handle.unref() : handle.ref());
  }

  function startLane(): Lane {
    const child = fork(CHILD_ENTRY, [], {
      execArgv: [`--max-old-space-size=${maxHeapMb}`, `--max-semi-space-size=${semiSpaceMb}`, ...LOADER_ARGS],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const lane: Lane = { child, ready: false, jobs: [], timer: undefined, stderr: '', heapExhausted: false };
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      // V8 aborts a process whose heap reached its cap, after saying so on stderr (the message may straddle
      // two chunks, and a chunk may be longer than the tail kept).
      if (/heap out of memory|reached heap limit/i.test(lane.stderr.slice(-40) + chunk)) lane.heapExhausted = true;
      lane.stderr = (lane.stderr + chunk).slice(-STDERR_TAIL_CHARS);
    });
    child.on('message', (reply: PageTextReply) => {
      if (reply.kind === 'ready') {
        lane.ready = true;
        for (const job of lane.jobs) send(lane, job);
      } else if (lane.jobs[0]?.id === reply.id) {
        finish(lane, reply.text, false);
      }
    });
    const gone = (why: string) => {
      if (!lanes.has(lane)) return;
      lanes.delete(lane);
      if (lane.heapExhausted) return finish(lane, inconclusive(`page extraction ran out of memory (${maxHeapMb} MiB heap cap)`), true);
      const tail = lane.stderr.trim().split('\n').at(-1);
      finish(lane, inconclusive(`page extraction child ${why}${tail ? `: ${tail}` : ''}`.toLowerCase()), true);
    };
    child.on('error', (error) => gone(`failed (${error.message})`));
    // 'close', not 'exit': stderr is read to its end first, so the reason can quote it.
    child.on('close', (code, signal) => gone(`exited (${signal ?? `code ${code}`})`));
    lanes.add(lane);
    return lane;
  }

  /** Hands a job to the lane's child once the child has loaded (before, `ready` sends them all). */
  function send(lane: Lane, job: Job): void {
    if (!lane.ready) return;
    const request: PageTextRequest = job.quotes === undefined ? { id: job.id, page: job.page } : { id: job.id, page: job.page, quotes: job.quotes };
    lane.child.send(request, (error) => {
      if (error && lane.jobs[0] === job) finish(lane, inconclusive(`page extraction child could not be reached (${error.message})`.toLowerCase()), true);
    });
  }

  /** The time limit of the page the child reads now (a child's start counts towards its first page's). */
  function startTimer(lane: Lane): void {
    lane.timer = setTimeout(() => finish(lane, inconclusive(`page extraction timed out after ${timeoutMs} ms`), true), timeoutMs);
    sampler ??= setInterval(sample, sampleMs).unref();
  }

  /** Reads every child's memory: one past its own limit is killed, then the largest while all are past theirs. */
  function sample(): void {
    const sizes: Array<{ lane: Lane; rss: number }> = [];
    for (const lane of lanes) {
      const rss = lane.child.pid === undefined ? undefined : readProcessRss(lane.child.pid);
      if (rss === undefined) continue;
      if (rss > maxRssMb * MIB) finish(lane, inconclusive(`page extraction exceeded ${maxRssMb} MiB of memory`), true);
      else sizes.push({ lane, rss });
    }
    sizes.sort((a, b) => b.rss - a.rss);
    let total = sizes.reduce((sum, { rss }) => sum + rss, 0);
    for (const { lane, rss } of sizes) {
      if (total <= maxTotalRssMb * MIB) break;
      finish(lane, inconclusive(`page extraction exceeded ${maxTotalRssMb} MiB of memory with the other pages read at once`), true);
      total -= rss;
    }
    // Idle children hold still: sampling stops until a page is handed out again.
    if (![...lanes].some((lane) => lane.jobs.length > 0)) {
      clearInterval(sampler);
      sampler = undefined;
    }
  }

  /** Hands waiting pages to an idle child, else a new one, else to a busy child with room behind its page. */
  function pump(): void {
    while (!closed && waiting.length > 0) {
      let lane: Lane | undefined;
      for (const candidate of lanes) if (candidate.jobs.length === 0) lane = candidate;
      if (lane === undefined && lanes.size < size) lane = startLane();
      for (const candidate of lanes) if (lane === undefined && candidate.jobs.length < PAGES_PER_CHILD) lane = candidate;
      if (lane === undefined) return;
      const job = waiting.shift()!;
      lane.jobs.push(job);
      if (lane.jobs.length === 1) {
        idle(lane, false);
        startTimer(lane);
      }
      send(lane, job);
    }
  }

  function extract(page: FetchedPage): Promise<PageText>;
  function extract(page: FetchedPage, quotes: readonly string[]): Promise<PageText | PageJudgement>;
  function extract(page: FetchedPage, quotes?: readonly string[]): Promise<PageText | PageJudgement> {
    if (closed) return Promise.resolve(inconclusive('page extraction stopped'));
    // Past its cap a page is inconclusive whatever follows its first bytes (the format sniff's 1024).
    const sent = page.complete ? page : { ...page, body: page.body.subarray(0, 1024) };
    return new Promise((resolve) => {
      waiting.push({ id: nextId++, page: sent, quotes: quotes === undefined ? undefined : [...quotes], resolve });
      pump();
    });
  }

  return {
    extract,
    async close() {
      closed = true;
      clearInterval(sampler);
      sampler = undefined;
      process.off('exit', killAll);
      const exits = [...lanes].map((lane) => {
        const exited = lane.child.exitCode !== null || lane.child.signalCode !== null
          ? Promise.resolve()
          : new Promise<void>((resolve) => lane.child.once('exit', () => resolve()));
        // Ref'd again, or an idle child's exit would not hold the loop open for this wait.
        lane.child.ref();
        finish(lane, inconclusive('page extraction stopped'), true);
        return exited;
      });
      lanes.clear();
      // After the lanes: a killed child's pages came back to the queue.
      for (const job of waiting.splice(0)) job.resolve(inconclusive('page extraction stopped'));
      await Promise.all(exits);
    },
    pids() {
      return [...lanes].flatMap((lane) => (lane.child.pid === undefined ? [] : [lane.child.pid]));
    },
  };
}

/** A limit of the run's own, not the page: the format is unknown here, as the child that would have sniffed it is gone. */
function inconclusive(reason: string): PageText {
  return { kind: 'inconclusive', format: 'other', reason, limit: 'run-time' };
}
