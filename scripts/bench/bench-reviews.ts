/**
 * `npm run bench -- --reviews`: the real `hra reviews run` (the real `openai` client) at its default concurrency
 * against the loopback model server (scripts/loopback/model-server.ts) answering by a scripted rule
 * (bench-review-answer.ts) after a fixed latency, 1 s and 5 s in alternating rounds. The records are `hra synth --seed 1`'s at the
 * published scale; their cited pages are archived whole by a real `hra links check` through the links bench's
 * fixture proxy, each the size of a real document (bench-page-shapes.ts). Each round reviews records of its
 * own, so every round starts from the same queue and archive growth is that round's.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ARCHIVE_INDEX_FILE } from '../../build/archive/warc-archive-layout.ts';
import { loadCorpus } from '../../build/corpus/load-corpus.ts';
import { selectQuoteTargets } from '../../build/links/select-quote-targets.ts';
import { DEFAULT_DUE_WITHIN_DAYS, findDueReviews, type DueReview } from '../../build/reviews/find-due-reviews.ts';
import { DEFAULT_REVIEW_CONCURRENCY } from '../commands/reviews-run-action.ts';
import { startLinkFixture } from '../loopback/link-fixture-proxy.ts';
import { startModelServer } from '../loopback/model-server.ts';
import { CHECK_FLAGS, FIXTURE_DELAY_MS, moveToTestHosts } from './bench-links.ts';
import { answerFirstStatedAmount } from './bench-review-answer.ts';
import { htmlShapeFor, pdfSizeFor } from './bench-page-shapes.ts';
import { createBenchQuotePages } from './bench-quote-pages.ts';
import { describeMachine } from './describe-machine.ts';
import { measureArchive, type ArchiveFigures } from './measure-archive.ts';
import { hraCommand, run } from './measure-build.ts';
import { median, spreadOf, type Spread } from './round-statistics.ts';
import { watchProcessTree } from './sample-process-tree.ts';

/** The model server's answer latencies measured side by side, in ms. */
export const REVIEW_LATENCIES_MS = [1000, 5000] as const;
/** The published scale, and the cycle a review lasts: what one day of reviews has to keep up with. */
export const PUBLISHED_RECORDS = 57_000;
export const REVIEW_CYCLE_DAYS = 90;
const LINKS_AT = '2026-11-23T06:00:00Z';
const REVIEWS_AT = '2026-11-24T06:00:00Z';
const MODEL = 'bench-scripted-rule';
const TREE_SAMPLE_MS = 100;

/** Rounds per latency and records per round. */
export function reviewsBenchShape(quick: boolean): { rounds: number; perRound: number } {
  return quick ? { rounds: 1, perRound: 12 } : { rounds: 3, perRound: 40 };
}

/** One measured `reviews run`. */
interface ReviewsRound {
  latencyMs: number;
  records: number;
  reviewed: number;
  rejected: number;
  rejectedBy: Record<string, number>;
  otherwise: number;
  calls: number;
  /** From the queue's line ("N records to review") to the run's exit: the reviews alone. */
  reviewSeconds: number;
  /** Spawn to exit: start-up, corpus load and the queue's drawing-up included. */
  wholeSeconds: number;
  peakTreeRssBytes: number;
  /** WARC and index.sqlite bytes the round added. */
  warcBytesAdded: number;
  indexBytesAdded: number;
  promptTokens: number;
  completionTokens: number;
  blockCpuMs: number;
  blockWallMs: number;
}

/** Runs the phase and returns its Markdown section. */
export async function benchReviews(root: string, work: string, quick: boolean, command: string, progress: (line: string) => void): Promise<string> {
  const began = performance.now();
  const loadAtStart = loadavg()[0] ?? 0;
  const shape = reviewsBenchShape(quick);
  const hra = hraCommand(root);
  const corpus = join(work, 'reviews-corpus');
  const archive = join(work, 'reviews-archive');
  await run(process.execPath, [...hra, 'synth', '--seed', '1', '--out', corpus, '--scale', '1'], root, progress);
  moveToTestHosts(corpus);
  const loaded = loadCorpus(corpus);
  const pages = await createBenchQuotePages(loaded, LINKS_AT.slice(0, 10));
  // A page is archived whole only where a quote check is due on it (a link check reads the rest to their first heading).
  const whole = selectQuoteTargets(loaded, { today: LINKS_AT.slice(0, 10), maxAgeDays: 0 }).due;
  const queue = findDueReviews(loaded, { at: REVIEWS_AT.slice(0, 10), withinDays: DEFAULT_DUE_WITHIN_DAYS });
  const needed = shape.rounds * REVIEW_LATENCIES_MS.length * shape.perRound;
  // A record whose own amount quote is due: its page states its quote, as a city's page states its program's amount.
  const chosen = pickTargets(queue.due, (target) => (whole.get(target.url) ?? []).some((task) => task.city === target.city && task.programId === target.programId), needed);
  const pdfs = chosen.filter((target) => pages.isPdf(new URL(target.url).href)).length;
  const pageBytes = median(chosen.map((target) => (pages.isPdf(new URL(target.url).href) ? pdfSizeFor(new URL(target.url).href) : htmlShapeFor(new URL(target.url).href)[0])));
  progress(`bench: ${queue.due.length} records due; reviewing ${chosen.length} whose amount quote is due, so their pages are archived whole (${pdfs} PDFs)`);

  const fixture = await startLinkFixture({ delayMs: FIXTURE_DELAY_MS, log: false, answer: pages.answer });
  try {
    await run(process.execPath, [...hra, 'links', 'check', '--corpus', corpus, '--at', LINKS_AT, '--max-age-days', '0', '--proxy', fixture.proxyUrl, ...CHECK_FLAGS,
      '--archive', archive, '--json', ...chosen.flatMap((target) => ['--url', target.url])], root, progress);
  } finally {
    await fixture.close();
  }
  const archivedBefore = settledArchive(archive);

  let latencyMs = 0;
  const server = await startModelServer({ reply: answerFirstStatedAmount, latencyMs: () => latencyMs });
  const rounds: ReviewsRound[] = [];
  try {
    for (let round = 0; round < shape.rounds; round++) {
      for (const latency of REVIEW_LATENCIES_MS) {
        const batch = chosen.splice(0, shape.perRound);
        latencyMs = latency;
        const before = settledArchive(archive);
        const callsBefore = server.requests.length;
        const args = [...hra, 'reviews', 'run', '--corpus', corpus, '--archive', archive, '--endpoint', server.baseUrl, '--model', MODEL, '--at', REVIEWS_AT, '--json',
          ...batch.flatMap((target) => ['--only', `${target.city}/${target.programId}`])];
        const measured = await runReviews(args, root);
        const after = settledArchive(archive);
        const summary = JSON.parse(measured.stdout.trim().split('\n').at(-1) ?? '{}') as { reviewed: number; rejected: number; rejectedBy: Record<string, number>; tokens: { prompt: number; completion: number } };
        const figures: ReviewsRound = {
          latencyMs: latency, records: batch.length, reviewed: summary.reviewed, rejected: summary.rejected, rejectedBy: summary.rejectedBy,
          otherwise: batch.length - summary.reviewed - summary.rejected, calls: server.requests.length - callsBefore,
          reviewSeconds: measured.reviewSeconds, wholeSeconds: measured.wholeSeconds, peakTreeRssBytes: measured.peakTreeRssBytes,
          warcBytesAdded: after.warcBytes - before.warcBytes, indexBytesAdded: after.indexBytes - before.indexBytes, promptTokens: summary.tokens.prompt, completionTokens: summary.tokens.completion,
          blockCpuMs: measured.blockCpuMs, blockWallMs: measured.blockWallMs,
        };
        rounds.push(figures);
        progress(`bench: round ${round + 1}, ${latency} ms: ${figures.reviewed} reviewed, ${figures.rejected} rejected (${JSON.stringify(figures.rejectedBy)}) in ${figures.reviewSeconds.toFixed(1)} s (${figures.wholeSeconds.toFixed(1)} s with start-up); archive +${figures.warcBytesAdded} B WARC, +${figures.indexBytesAdded} B index`);
      }
    }
  } finally {
    await server.close();
  }
  const load = `1-minute load average ${loadAtStart.toFixed(1)} at the start, ${(loadavg()[0] ?? 0).toFixed(1)} at the end`;
  return render({ command, rounds, load, shape, pdfs, pageBytes, dueCount: queue.due.length, archivedBefore, elapsedSeconds: (performance.now() - began) / 1000 });
}

/**
 * The archive measured with its index's write-ahead log folded in: the run's reader closes the index last and,
 * read-only, cannot fold it, so the log would count as growth until the next writer's first checkpoint.
 */
function settledArchive(archive: string): ArchiveFigures {
  const index = new Database(join(archive, ARCHIVE_INDEX_FILE));
  try {
    index.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    index.close();
  }
  return measureArchive(archive);
}

/** The first `count` due records, one per cited URL, that `isStated` admits. */
function pickTargets(due: readonly DueReview[], isStated: (target: DueReview) => boolean, count: number): DueReview[] {
  const urls = new Set<string>();
  const picked: DueReview[] = [];
  for (const target of due) {
    if (picked.length === count) break;
    if (!isStated(target) || urls.has(target.url)) continue;
    urls.add(target.url);
    picked.push(target);
  }
  if (picked.length < count) throw new Error(`only ${picked.length} due records have their amount quote due; the bench needs ${count}`);
  return picked;
}

/** Runs `node <args>` with the event-loop probe on, timing the reviews from the queue's line and sampling the process tree. */
function runReviews(args: readonly string[], cwd: string): Promise<{ stdout: string; reviewSeconds: number; wholeSeconds: number; peakTreeRssBytes: number; blockCpuMs: number; blockWallMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let queuedAt: number | undefined;
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HRA_REPORT_EVENT_LOOP_DELAY: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (queuedAt === undefined && /^reviews: \d+ records to review/m.test(stderr)) queuedAt = performance.now();
    });
    const tree = watchProcessTree(child.pid!, TREE_SAMPLE_MS);
    child.once('error', reject);
    child.once('close', (code) => {
      const ended = performance.now();
      const peak = tree.stop();
      if (code !== 0) return reject(new Error(`hra reviews run failed (${code}): ${stderr.trim().split('\n').at(-1) ?? ''}`));
      const block = /^reviews: longest event-loop block (\d+) ms of CPU \((\d+) ms of wall-clock delay\)$/m.exec(stderr);
      resolve({
        stdout, reviewSeconds: (ended - (queuedAt ?? started)) / 1000, wholeSeconds: (ended - started) / 1000, peakTreeRssBytes: peak.sum,
        blockCpuMs: Number(block?.[1] ?? Number.NaN), blockWallMs: Number(block?.[2] ?? Number.NaN),
      });
    });
  });
}

interface ReviewsReport {
  command: string;
  rounds: ReviewsRound[];
  load: string;
  shape: { rounds: number; perRound: number };
  pdfs: number;
  pageBytes: number;
  dueCount: number;
  archivedBefore: ArchiveFigures;
  elapsedSeconds: number;
}

function render(report: ReviewsReport): string {
  const spread = (spreadValue: Spread, digits: number, unit = '') => `${spreadValue.median.toFixed(digits)}${unit} (${spreadValue.min.toFixed(digits)}–${spreadValue.max.toFixed(digits)})`;
  const of = (latency: number) => report.rounds.filter((round) => round.latencyMs === latency);
  // A rejected answer is a review made, and archived, all the same: the rate counts both.
  const judged = (round: ReviewsRound) => round.reviewed + round.rejected;
  const perMinute = (round: ReviewsRound) => (60 * judged(round)) / round.reviewSeconds;
  const lines = [
    `### Reviews (\`${report.command}\`)`,
    '',
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${describeMachine()}; ${report.load}; ${report.elapsedSeconds.toFixed(0)} s in all.`,
    '',
    `\`hra reviews run --concurrency ${DEFAULT_REVIEW_CONCURRENCY}\` (the default) with the real \`openai\` client against the loopback model server answering by a scripted rule (scripts/bench/bench-review-answer.ts) after a fixed latency; ` +
      `${report.shape.rounds} rounds of ${report.shape.perRound} records per latency, alternating, each round its own records (one per cited URL) of the ${report.dueCount.toLocaleString('en-US')} due in \`hra synth --seed 1\`; ` +
      `their pages archived whole by \`hra links check\` through the fixture proxy, sizes of real documents (median ${(report.pageBytes / 1000).toFixed(0)} KB; ${report.pdfs} of ${report.rounds.reduce((sum, round) => sum + round.records, 0)} PDFs). ` +
      'Median (min–max) over the rounds; a review is an answered call, accepted or rejected (each archives its exchange):',
    '',
    '| latency | reviews/min, the reviews alone | reviews/min, with start-up | start-up (corpus load, the queue) | peak RSS, process tree | archive bytes per review, WARC + index | prompt tokens per call | completion tokens per call | longest event-loop block, CPU / wall | accepted / rejected / neither |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const latency of REVIEW_LATENCIES_MS) {
    const rounds = of(latency);
    const sum = (pick: (round: ReviewsRound) => number) => rounds.reduce((total, round) => total + pick(round), 0);
    lines.push(`| ${latency / 1000} s | ${spread(spreadOf(rounds.map(perMinute)), 1)} | ${spread(spreadOf(rounds.map((round) => (60 * judged(round)) / round.wholeSeconds)), 1)} | ` +
      `${spread(spreadOf(rounds.map((round) => round.wholeSeconds - round.reviewSeconds)), 1, ' s')} | ${spread(spreadOf(rounds.map((round) => round.peakTreeRssBytes / 2 ** 20)), 0, ' MiB')} | ` +
      `${spread(spreadOf(rounds.map((round) => round.warcBytesAdded / Math.max(1, judged(round)) / 1000)), 1, ' KB')} + ${spread(spreadOf(rounds.map((round) => round.indexBytesAdded / Math.max(1, judged(round)) / 1000)), 1, ' KB')} | ${spread(spreadOf(rounds.map((round) => round.promptTokens / round.calls)), 0)} | ` +
      `${spread(spreadOf(rounds.map((round) => round.completionTokens / round.calls)), 0)} | ${spread(spreadOf(rounds.map((round) => round.blockCpuMs)), 0, ' ms')} / ${spread(spreadOf(rounds.map((round) => round.blockWallMs)), 0, ' ms')} | ` +
      `${sum((round) => round.reviewed)} / ${sum((round) => round.rejected)} / ${sum((round) => round.otherwise)} |`);
  }
  const reasons: Record<string, number> = {};
  for (const round of report.rounds) for (const [reason, count] of Object.entries(round.rejectedBy)) reasons[reason] = (reasons[reason] ?? 0) + count;
  if (Object.keys(reasons).length > 0) lines.push('', `Rejections by reason, all rounds: ${Object.entries(reasons).map(([reason, count]) => `${reason} ${count}`).join(', ')} (the scripted rule answers \`unsure\` where no passage sentence states a dollar amount).`);
  lines.push('', ...renderDailyCost(report.rounds, perMinute));
  return `${lines.join('\n')}\n`;
}

/** One day of the 90-day cycle at the published scale and ten times it: calls, tokens, and the time at each latency. */
function renderDailyCost(rounds: readonly ReviewsRound[], perMinute: (round: ReviewsRound) => number): string[] {
  const calls = rounds.reduce((sum, round) => sum + round.calls, 0);
  const prompt = rounds.reduce((sum, round) => sum + round.promptTokens, 0) / calls;
  const completion = rounds.reduce((sum, round) => sum + round.completionTokens, 0) / calls;
  const lines = ['| scale | reviews a day | calls a day | prompt tokens a day | completion tokens a day | hours a day at 1 s | hours a day at 5 s | concurrency to finish in 1 h at 5 s |', '|---|---|---|---|---|---|---|---|'];
  for (const multiple of [1, 10]) {
    const daily = Math.ceil((multiple * PUBLISHED_RECORDS) / REVIEW_CYCLE_DAYS);
    const hoursAt = (latency: number) => daily / median(rounds.filter((round) => round.latencyMs === latency).map(perMinute)) / 60;
    // Calls scale with the concurrency until the machine runs out: a figure past what was measured is an estimate.
    const concurrency = Math.ceil(DEFAULT_REVIEW_CONCURRENCY * hoursAt(5000));
    lines.push(`| ${multiple === 1 ? 'published (57,000 records)' : 'ten times (570,000)'} | ${daily.toLocaleString('en-US')} | ${daily.toLocaleString('en-US')} | ${Math.round(daily * prompt).toLocaleString('en-US')} | ` +
      `${Math.round(daily * completion).toLocaleString('en-US')} | ${hoursAt(1000).toFixed(2)} | ${hoursAt(5000).toFixed(2)} | ${concurrency} |`);
  }
  return [
    `One call per record reviewed (a rejected answer leaves the record due, and it is asked again the next day); tokens per call as measured above (the mean over all ${calls} calls: ${prompt.toFixed(0)} prompt, ${completion.toFixed(0)} completion):`,
    '',
    ...lines,
  ];
}
