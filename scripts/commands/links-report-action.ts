/** The `hra links report` action: the weekly report a maintainer acts on, as text, JSON or Markdown. */
import { isChangeTimestamp } from '../../build/changes/is-change-timestamp.ts';
import { buildLinkReport } from '../../build/links/build-link-report.ts';
import { renderLinkReportMarkdown, renderLinkReportText } from '../../build/links/render-link-report.ts';
import { CliFailure, printJson } from '../cli-failure.ts';
import { loadCorpusOrFail } from './load-corpus-or-fail.ts';

/** The flags as commander hands them over. */
export interface LinksReportFlags {
  corpus: string;
  at?: string;
  json?: boolean;
  markdown?: boolean;
}

/** Prints the report: text for a maintainer, one JSON object with `--json`, or Markdown with `--markdown`. */
export function runLinksReport(flags: LinksReportFlags): void {
  if (flags.json && flags.markdown) throw new CliFailure('--json and --markdown: choose one');
  if (flags.at !== undefined && !isChangeTimestamp(flags.at)) throw new CliFailure(`--at ${JSON.stringify(flags.at)}: must be an ISO 8601 date-time with a timezone, such as 2026-11-16T06:00:00Z`);
  const corpus = loadCorpusOrFail(flags.corpus);
  // By default the report looks from the date the build serves staleness from, so the two agree.
  const report = buildLinkReport(corpus, flags.at === undefined ? corpus.manifest.asOf : new Date(flags.at).toISOString().slice(0, 10));
  if (flags.json) printJson({ ok: true, ...report });
  else process.stdout.write(flags.markdown ? renderLinkReportMarkdown(report) : renderLinkReportText(report));
}
