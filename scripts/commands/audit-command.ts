/** `hra audit sample` and `hra audit publish`: the strict fact audit, drawn reproducibly and published with its error bound. */
import type { Command } from 'commander';
import type { AuditPublishFlags } from './audit-publish-action.ts';
import type { AuditSampleFlags } from './audit-sample-action.ts';
import { loadModules } from '../module-load-failure.ts';

/** Registers `hra audit` and its subcommands on the root program; each action's modules load when it runs. */
export function registerAuditCommand(program: Command): void {
  const audit = program.command('audit').description('the strict fact audit: draw a reproducible sample for a person to check, then publish its error bound');

  audit
    .command('sample')
    .description('draw a stratified random sample of licensed live-city records from the seed (algorithm hra-audit-sample-1, docs/decisions.md) and write its worksheet, one row per record and field, and <out>.draw.json beside it')
    .requiredOption('--corpus <dir>', 'the corpus to sample')
    .requiredOption('--size <n>', 'how many records to draw')
    .requiredOption('--seed <text>', 'the seed anyone can draw the same sample again from')
    .option('--strata <by>', 'stratify by city or confidence (default: city)')
    .requiredOption('--out <worksheet.csv>', 'the worksheet to write; never overwritten')
    .option('--archive <dir>', 'the evidence archive: fill each record\'s passages from its archived page (default: none, the passages left empty)')
    .option('--json', 'print one JSON object: {ok, worksheet, draw, algorithm, seed, size, strata, frameDigest, frameSize, strataDrawn, records}')
    .action(async (flags: AuditSampleFlags) => (await loadModules(() => import('./audit-sample-action.ts'))).runAuditSample(flags));

  audit
    .command('publish')
    .description('check a filled worksheet against the sample drawn again from its draw file and the corpus, and write reports/fact-audit-latest.json with every verdict, the errors per field and the 95% upper bound (Clopper-Pearson); all or nothing')
    .requiredOption('--corpus <dir>', 'the corpus the sample was drawn from')
    .requiredOption('--worksheet <file.csv>', 'the filled worksheet')
    .option('--draw <file>', 'the sample\'s draw file (default: <worksheet>.draw.json)')
    .requiredOption('--reviewer <name>', 'the person who filled the worksheet')
    .option('--at <ISO date-time>', 'when the audit completed (default: now)')
    .option('--illustrative', 'mark the verdicts as a demonstration, not a real audit')
    .option('--json', 'print one JSON object: {ok, report, completedAt, recordsAudited, factErrors, recordsUnverifiable, errorRate, errorRateUpperBound, fieldErrors}')
    .action(async (flags: AuditPublishFlags) => (await loadModules(() => import('./audit-publish-action.ts'))).runAuditPublish(flags));
}
