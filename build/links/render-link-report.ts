/** `hra links report` as a maintainer reads it: per city, in plain text or in Markdown for a pull request. */
import type { LinkReport } from './build-link-report.ts';
import { STALE_WARNING_DAYS } from './find-quote-report-entries.ts';

/** One city's share of the report (a problem URL cited in two cities appears under both). */
interface CitySection {
  city: string;
  quotesNotFound: LinkReport['quotesNotFound'];
  reviewedAmounts: LinkReport['reviewedAmounts'];
  staleSoon: LinkReport['staleSoon'];
  likelyClosed: LinkReport['likelyClosed'];
  problems: LinkReport['problems'];
}

/** The report cut by city, cities in code-point order, those with nothing to act on left out. */
export function reportByCity(report: LinkReport): CitySection[] {
  const sections = new Map<string, CitySection>();
  const section = (city: string) => {
    let found = sections.get(city);
    if (!found) {
      found = { city, quotesNotFound: [], reviewedAmounts: [], staleSoon: [], likelyClosed: [], problems: [] };
      sections.set(city, found);
    }
    return found;
  };
  for (const entry of report.quotesNotFound) section(entry.city).quotesNotFound.push(entry);
  for (const entry of report.reviewedAmounts) section(entry.city).reviewedAmounts.push(entry);
  for (const entry of report.staleSoon) section(entry.city).staleSoon.push(entry);
  for (const entry of report.likelyClosed) section(entry.city).likelyClosed.push(entry);
  for (const problem of report.problems) {
    for (const city of new Set(problem.programs.map((program) => program.city))) section(city).problems.push(problem);
  }
  return [...sections.values()].sort((a, b) => (a.city < b.city ? -1 : a.city > b.city ? 1 : 0));
}

const cited = (programs: ReadonlyArray<{ city: string; programId: string }>) => programs.map((p) => `${p.city}/${p.programId}`).join(', ');
const amounts = (list: ReadonlyArray<{ text: string }>) => (list.length === 0 ? 'none' : list.map((amount) => amount.text).join(', '));
const money = (value: number | null) => (value === null ? 'none' : `$${value.toLocaleString('en-US')}`);

/** Plain text, one section per city. */
export function renderLinkReportText(report: LinkReport): string {
  const lines = [
    `weekly verification report as of ${report.at}: ${report.quotesNotFound.length} quotes no longer found, ` +
      `${report.reviewedAmounts.length} reviewed quotes stating another amount, ` +
      `${report.staleSoon.length} reviews turning stale within ${STALE_WARNING_DAYS} days, ${report.likelyClosed.length} likely closed, ` +
      `${report.problems.length} dead or bot-blocked URLs`,
  ];
  for (const city of reportByCity(report)) {
    lines.push(`${city.city}`);
    if (city.quotesNotFound.length > 0) lines.push(`  quotes no longer found (candidates for a correction, never applied): ${city.quotesNotFound.length}`);
    for (const entry of city.quotesNotFound) {
      lines.push(`    ${entry.city}/${entry.programId}  ${entry.url}  checked ${entry.checkedAt}  maxAmount ${money(entry.maxAmount)}; the page states ${amounts(entry.statedAmounts)}`);
    }
    if (city.reviewedAmounts.length > 0) lines.push(`  reviewed quotes stating another amount than maxAmount (candidates for a correction, never applied): ${city.reviewedAmounts.length}`);
    for (const entry of city.reviewedAmounts) {
      lines.push(`    ${entry.city}/${entry.programId}  ${entry.url}  ${entry.reviewer} review of ${entry.reviewedAt}  maxAmount ${money(entry.maxAmount)}; the quote states ${amounts(entry.statedAmounts)}: ${JSON.stringify(entry.quote)}`);
    }
    if (city.staleSoon.length > 0) lines.push(`  reviews turning stale within ${STALE_WARNING_DAYS} days: ${city.staleSoon.length}`);
    for (const entry of city.staleSoon) lines.push(`    ${entry.city}/${entry.programId}  ${entry.kind} review of ${entry.reviewedAt}, stale on ${entry.staleOn}`);
    if (city.likelyClosed.length > 0) lines.push(`  likely closed (404 or 410 at each of the last three check dates): ${city.likelyClosed.length}`);
    for (const entry of city.likelyClosed) lines.push(`    ${entry.city}/${entry.programId}  ${entry.url}  ${entry.dates.join(', ')}`);
    if (city.problems.length > 0) lines.push(`  dead or bot-blocked at their latest attempt: ${city.problems.length}`);
    for (const problem of city.problems) {
      lines.push(`    ${problem.outcome} (${problem.httpStatus ?? 'no status'}, ${problem.checkedAt})  ${problem.url}  cited by ${cited(problem.programs)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Markdown for a pull-request description: a heading per city and a table per list. */
export function renderLinkReportMarkdown(report: LinkReport): string {
  const out = [`## Weekly verification report, ${report.at}`, ''];
  const sections = reportByCity(report);
  if (sections.length === 0) out.push('Nothing to act on.', '');
  const table = (title: string, head: readonly string[], rows: ReadonlyArray<readonly string[]>) => {
    if (rows.length === 0) return;
    out.push(`**${title}**`, '', `| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);
    for (const row of rows) out.push(`| ${row.map(cell).join(' | ')} |`);
    out.push('');
  };
  for (const city of sections) {
    out.push(`### ${city.city}`, '');
    table('Quotes no longer found: candidates for a correction (never applied automatically)', ['program', 'URL', 'checked', 'maxAmount', 'the page states'],
      city.quotesNotFound.map((e) => [e.programId, e.url, e.checkedAt, money(e.maxAmount), amounts(e.statedAmounts)]));
    table('Reviewed quotes stating another amount than maxAmount: candidates for a correction (never applied automatically)', ['program', 'URL', 'review', 'maxAmount', 'the quote states', 'quote'],
      city.reviewedAmounts.map((e) => [e.programId, e.url, `${e.reviewer}, ${e.reviewedAt}`, money(e.maxAmount), amounts(e.statedAmounts), e.quote]));
    table(`Reviews turning stale within ${STALE_WARNING_DAYS} days`, ['program', 'review', 'reviewed', 'stale on'],
      city.staleSoon.map((e) => [e.programId, e.kind, e.reviewedAt, e.staleOn]));
    table('Likely closed (404 or 410 at the last three check dates)', ['program', 'URL', 'dates'],
      city.likelyClosed.map((e) => [e.programId, e.url, e.dates.join(', ')]));
    table('Dead or bot-blocked at the latest attempt', ['URL', 'outcome', 'status', 'checked', 'cited by'],
      city.problems.map((p) => [p.url, p.outcome, String(p.httpStatus ?? 'none'), p.checkedAt, cited(p.programs)]));
  }
  return `${out.join('\n')}`;
}

/** A table cell: pipes and line breaks escaped, so page text cannot break the table. */
function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
}
