/** The Markdown of a start-up run (`npm run bench -- --startup`): one row per subject, the ratio to openssl, the phases. */
import { atMost } from './bench-targets.ts';
import { median } from './round-statistics.ts';
import { startupSpread, type StartupFigures } from './measure-startup.ts';

/** Issue 25, goal 3: the gateway's spawn to first licensed 200 at most this many times openssl's hash of the file. */
export const STARTUP_TARGET_RATIO = 1.3;

/** A start-up run with its setting. */
export interface StartupReport {
  readonly command: string;
  readonly date: string;
  readonly machine: string;
  readonly rows: number;
  readonly revision: string;
  readonly figures: StartupFigures;
  /** The subject the target is about (this tree's compiled gateway). */
  readonly target: string;
  readonly loadAverage: { readonly start: number; readonly end: number };
  readonly notes: readonly string[];
  readonly elapsedSeconds: number;
}

/** The report's Markdown. */
export function renderStartupReport(report: StartupReport): string {
  const { figures } = report;
  const lines = [
    `### Start-up — \`${report.command}\` — ${report.date}`,
    '',
    `${report.machine}; ${report.rows.toLocaleString('en-US')} rows, snapshot ${report.revision.slice(0, 16)}…; ${figures.rounds} interleaved rounds after one warm-up round (page cache warm); load average (1 min) ${report.loadAverage.start.toFixed(1)} at start, ${report.loadAverage.end.toFixed(1)} at the end; ${report.elapsedSeconds.toFixed(0)} s.`,
    '',
    `| subject | ms, median | ms, min–max | / ${figures.reference}, median (min–max) |`,
    '|---|---:|---:|---:|',
  ];
  for (const label of figures.labels) {
    const { ms, ratio } = startupSpread(figures, label);
    lines.push(`| ${label} | ${ms.median.toFixed(0)} | ${ms.min.toFixed(0)}–${ms.max.toFixed(0)} | ${ratio.median.toFixed(2)} (${ratio.min.toFixed(2)}–${ratio.max.toFixed(2)}) |`);
  }
  const verdict = atMost(startupSpread(figures, report.target).ratio.median, STARTUP_TARGET_RATIO, `× ${figures.reference}`, 2);
  lines.push('', `Target (issue 25, goal 3), ${report.target}: ${verdict.text}.`);
  for (const [label, rounds] of Object.entries(figures.phases)) {
    if (rounds.length === 0) continue;
    const names = [...new Set(rounds.flatMap((phases) => Object.keys(phases)))];
    const medians = names.map((name) => `${name} ${median(rounds.flatMap((phases) => (phases[name] === undefined ? [] : [phases[name] as number]))).toFixed(0)}`);
    lines.push('', `Phases of ${label} (its \`start-up\` log line, ms since its process began, median of the rounds): ${medians.join(', ')}; the bench saw its first licensed 200 at ${startupSpread(figures, label).ms.median.toFixed(0)} ms after spawn.`);
  }
  if (report.notes.length > 0) lines.push('', ...report.notes.map((note) => `- ${note}`));
  return lines.join('\n');
}
