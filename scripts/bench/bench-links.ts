/**
 * `npm run bench -- --links`: `hra links check` over the cited URLs of a corpus at the published scale,
 * against the loopback fixture proxy of the tests (scripts/loopback/link-fixture-proxy.ts) answering every
 * site in about 20 ms. Measures the run's duration, peak RSS and the most requests the fixture saw in
 * flight to one host; a second run over a quarter of the URLs shows memory does not follow the URL count.
 * `--quick` runs the quarter alone: links alone, with quotes (the archive's first week) and an unchanged
 * second week over the same URLs, so that the ratios fit a loaded machine's quarter hour. `--rounds N` runs
 * those three in turn N times (link-rounds.ts), each round on fresh copies, for ratios round by round by wall
 * and by the CPU time of the process tree (GNU time: the run and every child it waited for).
 * It runs the compiled CLI (bench.ts compiles first), as an operator runs it; each week's peak RSS is that of
 * the whole process tree, the extraction children included.
 */
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { loadCorpus } from '../../build/corpus/load-corpus.ts';
import { visitCitations } from '../../build/links/visit-citations.ts';
import { startLinkFixture } from '../loopback/link-fixture-proxy.ts';
import { HTML_PAGE_SHAPES, PDF_SIZES } from './bench-page-shapes.ts';
import { createBenchQuotePages, PDF_SHARE } from './bench-quote-pages.ts';
import { describeMachine } from './describe-machine.ts';
import { measureArchive, type ArchiveFigures } from './measure-archive.ts';
import { renderLinkRounds, summarizeLinkRounds, type LinkRound, type LinkRoundFigures } from './link-rounds.ts';
import { hraCommand, run, runWithPeakRss } from './measure-build.ts';

/** The run's settings, as `hra links check` flags (the fixture's latency is the other half). */
export const CHECK_FLAGS = ['--concurrency', '64', '--per-host', '2', '--host-interval-ms', '10', '--timeout-ms', '15000', '--retries', '2'];
/** The fixture's latency per answer, in ms. */
export const FIXTURE_DELAY_MS = 20;
const AT = '2026-11-23T06:00:00Z';
/** What the fixture's page sizes follow, for the report. */
const PAGE_SHAPES = `drawn per URL from ${HTML_PAGE_SHAPES.length} real HTML pages (${kb(Math.min(...HTML_PAGE_SHAPES.map(([bytes]) => bytes)))}-${kb(Math.max(...HTML_PAGE_SHAPES.map(([bytes]) => bytes)))}) and ${PDF_SIZES.length} real PDFs (${kb(Math.min(...PDF_SIZES))}-${kb(Math.max(...PDF_SIZES))}), served uncompressed as the checker asks (scripts/bench/bench-page-shapes.ts)`;
/** The second archive week: seven days on, the fixture serving the very same pages. */
const AT_WEEK_2 = '2026-11-30T06:00:00Z';

/** One measured `links check` run. */
interface LinksRun {
  label: string;
  urls: number;
  hosts: number;
  requests: number;
  seconds: number;
  /** User + system CPU seconds of the run, its launcher and its extraction children (GNU time); undefined without it. */
  cpuSeconds: number | undefined;
  peakRssBytes: number | undefined;
  /** The run, its launcher and its extraction children together. */
  peakTreeRssBytes: number;
  maxInFlightPerHost: number;
  outcomes: Record<string, number>;
  /** `rss` of the progress lines, MB, in order. */
  progressRssMb: number[];
  /** Quote checks made, by outcome (empty for a `--no-quotes` run). */
  quoteOutcomes: Record<string, number>;
  /** Pages handed to the extraction, and quote checks carried forward from a check of the same bytes (0 for `--no-quotes`). */
  extracted: number;
  reused: number;
  /** The run's archive (its own folder; the second week's is the first week's, measured after). */
  archive: ArchiveFigures;
}

/** Runs the phase and returns its Markdown section. */
export async function benchLinks(root: string, work: string, scale: number, command: string, progress: (line: string) => void, quick = false, roundCount = 1): Promise<string> {
  const began = performance.now();
  const loadAtStart = loadavg()[0] ?? 0;
  const hra = hraCommand(root);
  const corpus = join(work, 'links-corpus');
  await run(process.execPath, [...hra, 'synth', '--seed', '1', '--out', corpus, '--scale', String(scale)], root, progress);
  moveToTestHosts(corpus);
  const urls: string[] = [];
  const loaded = loadCorpus(corpus);
  visitCitations(loaded, ({ url }) => urls.push(url));
  const pages = await createBenchQuotePages(loaded, AT.slice(0, 10));
  progress(`bench: ${pages.quotes} amount quotes on ${pages.htmlPages} HTML pages and ${pages.pdfPages} PDFs`);
  const distinct = [...new Set(urls)].sort();
  const evidence = join(corpus, 'evidence/link-checks.ndjson');
  const quoteEvidence = join(corpus, 'evidence/quote-checks.ndjson');
  const pristine = readFileSync(evidence);

  let archives = 0;
  const measure = async (label: string, only: readonly string[] | undefined, quotes: boolean, week: { at: string; archive: string | false } | undefined = undefined): Promise<LinksRun> => {
    // Every run starts from the same corpus and a new archive, but the second week, which continues the first.
    if (week === undefined || week.archive === false) {
      writeFileSync(evidence, pristine);
      writeFileSync(quoteEvidence, '');
    }
    const archive = week === undefined ? join(work, `links-archive-${++archives}`) : week.archive;
    const fixture = await startLinkFixture({ delayMs: FIXTURE_DELAY_MS, log: false, answer: pages.answer });
    try {
      const args = [
        ...hra, 'links', 'check', '--corpus', corpus, '--at', week?.at ?? AT, '--max-age-days', '0', '--proxy', fixture.proxyUrl, ...CHECK_FLAGS, ...(archive === false ? ['--no-archive'] : ['--archive', archive]),
        ...(quotes ? [] : ['--no-quotes']), '--json',
      ];
      const measured = await runWithPeakRss([...args, ...(only ?? []).flatMap((url) => ['--url', url])], root, progress);
      const summary = JSON.parse(measured.stdout.trim().split('\n').at(-1) ?? '{}') as {
        checked: number; outcomes: Record<string, number>; quotes: { outcomes: Record<string, number>; extracted?: number; reused?: number };
      };
      const hosts = [...fixture.hosts.values()];
      return {
        label,
        urls: summary.checked,
        hosts: hosts.length,
        requests: hosts.reduce((sum, stats) => sum + stats.requests, 0),
        seconds: measured.seconds,
        cpuSeconds: measured.cpuSeconds,
        peakRssBytes: measured.peakRssBytes,
        peakTreeRssBytes: measured.peakTreeRssBytes,
        maxInFlightPerHost: hosts.reduce((max, stats) => Math.max(max, stats.maxInFlight), 0),
        outcomes: summary.outcomes,
        progressRssMb: [...measured.stderr.matchAll(/^links: .* rss (\d+) MB$/gm)].map((match) => Number(match[1])),
        quoteOutcomes: quotes ? summary.quotes.outcomes : {},
        extracted: quotes ? summary.quotes.extracted ?? 0 : 0,
        reused: quotes ? summary.quotes.reused ?? 0 : 0,
        archive: measureArchive(archive === false ? join(work, 'no-archive') : archive),
      };
    } finally {
      await fixture.close();
    }
  };
  // A quarter of the URLs, every fourth in sorted order so it spans as many hosts as the whole.
  const quarterUrls = distinct.filter((_, index) => index % 4 === 0);
  const runs: LinksRun[] = [];
  const quarter = ['a quarter of the URLs (`--url` x N)', quarterUrls] as const;
  const every = ['every cited URL', undefined] as const;
  const [mainLabel, mainUrls] = quick ? quarter : every;
  const report = (measured: LinksRun) => {
    progress(`bench: ${measured.label} ${measured.seconds.toFixed(1)} s, CPU ${measured.cpuSeconds === undefined ? 'n/a' : `${measured.cpuSeconds.toFixed(1)} s`}`);
    return measured;
  };
  // Past the published scale only the archive's two weeks run, once: what is asked there is memory and time, and
  // the side-by-side ratios are the published scale's (six runs at ten times it would take hours).
  if (scale !== 1) {
    const week1 = report(await measure(`${every[0]}, links and quotes`, undefined, true));
    const week2 = report(await measure(`${every[0]}, links and quotes, a week later with nothing changed`, undefined, true, { at: AT_WEEK_2, archive: join(work, `links-archive-${archives}`) }));
    runs.push(week1, week2);
    return finish(runs, [week1, week2], undefined, undefined);
  }
  // The full run (not --quick) first measures the quarter links alone and with quotes, back to back, to show
  // memory does not follow the URL count, and the full run with `--no-archive`, for what archiving costs.
  let unarchived: LinksRun | undefined;
  if (!quick) {
    for (const quotes of [false, true]) runs.push(report(await measure(`${quarter[0]}, ${quotes ? 'links and quotes' : 'links alone (`--no-quotes`)'}`, quarter[1], quotes)));
    unarchived = report(await measure(`${every[0]}, links and quotes, \`--no-archive\``, undefined, true, { at: AT, archive: false }));
  }
  // The rounds: links alone, the first week and its unchanged second week, in turn, each round on a fresh
  // corpus and new archives, so the three see the same load; an earlier round's archives go once measured.
  const rounds: Array<LinkRound<LinksRun>> = [];
  for (let round = 1; round <= roundCount; round++) {
    const tag = roundCount === 1 ? '' : ` (round ${round})`;
    const alone = report(await measure(`${mainLabel}, links alone (\`--no-quotes\`)${tag}`, mainUrls, false));
    const first = report(await measure(`${mainLabel}, links and quotes${tag}`, mainUrls, true));
    const second = report(await measure(`${mainLabel}, links and quotes, a week later with nothing changed${tag}`, mainUrls, true, { at: AT_WEEK_2, archive: join(work, `links-archive-${archives}`) }));
    rounds.push({ alone, first, second });
    runs.push(alone, first, second);
    if (round < roundCount) for (let made = archives - 1; made <= archives; made++) rmSync(join(work, `links-archive-${made}`), { recursive: true, force: true });
  }
  const last = rounds.at(-1) as LinkRound<LinksRun>;
  if (unarchived) runs.push(unarchived);
  return finish(runs, [last.first, last.second], unarchived, summarizeLinkRounds(rounds));

  function finish(all: LinksRun[], weeks: [LinksRun, LinksRun], noArchive: LinksRun | undefined, roundFigures: LinkRoundFigures | undefined): string {
    const load = `1-minute load average ${loadAtStart.toFixed(1)} at the start, ${(loadavg()[0] ?? 0).toFixed(1)} at the end`;
    const pageMix = `${pages.quotes.toLocaleString('en-US')} amount quotes on ${pages.htmlPages.toLocaleString('en-US')} HTML pages and ${pages.pdfPages.toLocaleString('en-US')} PDFs (one quote page in ${PDF_SHARE})`;
    return render({ command, scale, rows: urls.length, runs: all, load, pageMix, elapsedSeconds: (performance.now() - began) / 1000, weeks, unarchived: noArchive, rounds: roundFigures });
  }
}

/**
 * Moves every URL of the generated corpus onto a made-up `.test` host over plain HTTP
 * (`https://housing.ohio.example.org/x` becomes `http://housing.ohio.example.org.test/x`), the federal
 * records' real addresses included: nothing in the bench could reach a real site even by mistake.
 */
export function moveToTestHosts(corpus: string): void {
  const files = ['national.ndjson', 'corrections.ndjson', 'evidence/link-checks.ndjson', ...readdirSync(join(corpus, 'programs')).map((name) => `programs/${name}`)];
  for (const relative of files) {
    const file = join(corpus, relative);
    // Written aside and renamed over: a bench killed mid-write leaves each file whole, moved or not.
    const moved = `${file}.moving`;
    writeFileSync(moved, readFileSync(file, 'utf8').replace(/"https?:\/\/([^/"]+)/g, '"http://$1.test'));
    renameSync(moved, file);
  }
}

function kb(bytes: number): string {
  return `${(bytes / 1000).toFixed(0)} KB`;
}

function render(report: { command: string; scale: number; rows: number; runs: LinksRun[]; load: string; pageMix: string; elapsedSeconds: number; weeks: [LinksRun, LinksRun]; unarchived: LinksRun | undefined; rounds: LinkRoundFigures | undefined }): string {
  const mb = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : `${(bytes / 1e6).toFixed(0)} MB`);
  const lines = [
    `### Link check, scale ${report.scale} (\`${report.command}\`)`,
    '',
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${describeMachine()}; ${report.load}; ${report.elapsedSeconds.toFixed(0)} s in all.`,
    '',
    `\`hra links check ${CHECK_FLAGS.join(' ')} --max-age-days 0\` through the loopback fixture proxy (${FIXTURE_DELAY_MS} ms per answer), over \`hra synth --seed 1 --scale ${report.scale}\` (${report.rows.toLocaleString('en-US')} citing records) with every URL moved to a \`.test\` host; the fixture serves ${report.pageMix}, each stating its quote, and a program page elsewhere; every page takes the size (and an HTML page its first \`</h1\` offset) of a real one, ${PAGE_SHAPES}.`,
    '',
    '| run | URLs | hosts | requests | duration | CPU, process tree | URLs/s | peak RSS | peak RSS, process tree | most in flight to one host | RSS in progress lines (MB) |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const run of report.runs) {
    lines.push(
      `| ${run.label} | ${run.urls.toLocaleString('en-US')} | ${run.hosts.toLocaleString('en-US')} | ${run.requests.toLocaleString('en-US')} | ` +
        `${run.seconds.toFixed(1)} s | ${cpuOf(run)} | ${(run.urls / run.seconds).toFixed(0)} | ${mb(run.peakRssBytes)} | ${mb(run.peakTreeRssBytes)} | ${run.maxInFlightPerHost} | ${run.progressRssMb.join(', ')} |`,
    );
  }
  const full = report.weeks[0];
  if (Object.keys(full.quoteOutcomes).length > 0) {
    lines.push('', `Outcomes of the full run: ${Object.entries(full.outcomes).map(([outcome, n]) => `${outcome} ${n}`).join(', ')} (the fixture answers 200 to every generated page); ` +
      `quote checks: ${Object.entries(full.quoteOutcomes).map(([outcome, n]) => `${outcome} ${n}`).join(', ')}.`);
  }
  // The full run's quarter pair, run once before the rounds.
  const [alone, both] = report.runs;
  if (report.unarchived && alone && both) {
    lines.push('', `Ratio, ${both.label.replace(/, links and quotes$/, '')}: links and quotes took ${(both.seconds / alone.seconds).toFixed(2)}x the time of links alone, measured back to back (target: at most 1.5x).`);
  }
  if (report.rounds) lines.push('', ...renderLinkRounds(report.rounds));
  lines.push('', ...renderArchiveWeeks(report.weeks, report.unarchived, report.scale));
  return `${lines.join('\n')}\n`;
}

const GIB = 1024 * 1024 * 1024;

function cpuOf(run: LinksRun): string {
  return run.cpuSeconds === undefined ? 'n/a' : `${run.cpuSeconds.toFixed(1)} s`;
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
}

/** The evidence archive's two weeks: bytes by record type, run time, and the weekly growth it implies. */
function renderArchiveWeeks([week1, week2]: [LinksRun, LinksRun], unarchived: LinksRun | undefined, scale: number): string[] {
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  const added = (type: keyof ArchiveFigures['byType']) => ({
    records: week2.archive.byType[type].records - week1.archive.byType[type].records,
    bytes: week2.archive.byType[type].bytes - week1.archive.byType[type].bytes,
  });
  const first = week1.archive.warcBytes;
  const second = week2.archive.warcBytes - first;
  const indexAdded = week2.archive.indexBytes - week1.archive.indexBytes;
  const cell = (figures: { records: number; bytes: number }) => `${figures.records.toLocaleString('en-US')} / ${mb(figures.bytes)}`;
  const lines = [
    'Evidence archive (WARC, gzip per record; `records / bytes` per type; the index beside it):',
    '',
    '| week | duration | CPU, process tree | peak RSS, process tree | requests | WARC bytes added | request records | response records | revisit records | index.sqlite |',
    '|---|---|---|---|---|---|---|---|---|---|',
    `| first (a new archive) | ${week1.seconds.toFixed(1)} s | ${cpuOf(week1)} | ${mib(week1.peakTreeRssBytes)} | ${week1.requests.toLocaleString('en-US')} | ${mb(first)} | ${cell(week1.archive.byType.request)} | ${cell(week1.archive.byType.response)} | ${cell(week1.archive.byType.revisit)} | ${mb(week1.archive.indexBytes)} |`,
    `| second, nothing changed | ${week2.seconds.toFixed(1)} s | ${cpuOf(week2)} | ${mib(week2.peakTreeRssBytes)} | ${week2.requests.toLocaleString('en-US')} | ${mb(second)} (${((100 * second) / first).toFixed(1)}% of the first) | ${cell(added('request'))} | ${cell(added('response'))} | ${cell(added('revisit'))} | ${mb(week2.archive.indexBytes)} |`,
    '',
    `Peak RSS of the process tree (the run and its extraction children, sampled every 100 ms): first week ${mib(week1.peakTreeRssBytes)}, second ${mib(week2.peakTreeRssBytes)}; ` +
      `${Math.max(week1.peakTreeRssBytes, week2.peakTreeRssBytes) <= GIB ? 'both within' : '**not** both within'} 1 GiB (the target at ten times the published scale).`,
    ...(unarchived ? [`Archiving's cost in time: the first week took ${(week1.seconds / unarchived.seconds).toFixed(2)}x the same run with \`--no-archive\` (${unarchived.seconds.toFixed(1)} s), measured back to back.`] : []),
    `The unchanged week's quote checks: ${week2.reused.toLocaleString('en-US')} carried forward from the first week's verdicts, ${week2.extracted.toLocaleString('en-US')} pages extracted (the first week: ${week1.extracted.toLocaleString('en-US')} extracted, ${week1.reused.toLocaleString('en-US')} reused).`,
    `With the index: the second week adds ${mb(second + indexAdded)} of WARC and index, ${((100 * (second + indexAdded)) / (first + week1.archive.indexBytes)).toFixed(1)}% of the first week's ${mb(first + week1.archive.indexBytes)}.`,
    `Weekly growth once pages stop changing: ${mb(second)} of WARC (${mb(second + indexAdded)} with the index) at scale ${scale}, about ${mb(10 * second)} (${mb(10 * (second + indexAdded))}) at ten times it (the same records per request, ten times the requests).`,
  ];
  return lines;
}
