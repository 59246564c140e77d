/** The `hra audit sample` action: draws the strict fact audit's sample and writes its worksheet and draw file. */
import { existsSync, writeFileSync } from 'node:fs';
import { auditDrawPath } from '../../build/audit/audit-draw.ts';
import { AUDIT_COLUMNS, auditWorksheetRows } from '../../build/audit/audit-worksheet.ts';
import { drawAuditSample, SAMPLE_ALGORITHM } from '../../build/audit/draw-audit-sample.ts';
import { readAuditPassages } from '../../build/audit/read-audit-passages.ts';
import { AUDIT_STRATA, readAuditFrame, type AuditStrata } from '../../build/audit/read-audit-frame.ts';
import { writeWorksheet } from '../../build/worksheets/write-worksheet.ts';
import { CliFailure, printJson, progress } from '../cli-failure.ts';
import { loadCorpusOrFail } from './load-corpus-or-fail.ts';
import { withArchivedPages } from './with-archived-pages.ts';

/** The flags as commander hands them over. */
export interface AuditSampleFlags {
  corpus: string;
  size: string;
  seed: string;
  strata?: string;
  out: string;
  archive?: string;
  json?: boolean;
}

/**
 * Draws the sample; refuses to overwrite a worksheet (a person may have filled it) or its draw file. With
 * `--archive`, each record's rows carry the passages of its archived page.
 */
export async function runAuditSample(flags: AuditSampleFlags): Promise<void> {
  const size = Number(flags.size);
  if (!/^[1-9][0-9]*$/.test(flags.size) || !Number.isSafeInteger(size)) throw new CliFailure(`--size ${JSON.stringify(flags.size)}: must be a whole number of at least 1`);
  if (flags.seed === '') throw new CliFailure('--seed: must not be empty');
  const strata = (flags.strata ?? 'city') as AuditStrata;
  if (!AUDIT_STRATA.includes(strata)) throw new CliFailure(`--strata ${JSON.stringify(flags.strata)}: must be one of ${AUDIT_STRATA.join(', ')}`);
  const corpus = loadCorpusOrFail(flags.corpus);
  const frame = readAuditFrame(corpus, strata);
  let sample;
  try {
    sample = drawAuditSample(frame, size, flags.seed);
  } catch (error) {
    throw new CliFailure((error as Error).message);
  }
  const draw = { algorithm: SAMPLE_ALGORITHM, seed: flags.seed, size, strata, frameDigest: sample.frameDigest, frameSize: sample.frameSize, strataDrawn: sample.strata };
  const drawFile = auditDrawPath(flags.out);
  for (const file of [flags.out, drawFile]) {
    if (existsSync(file)) throw new CliFailure(`--out ${file}: already exists (a filled worksheet is never overwritten; choose another file)`);
  }
  const passages = flags.archive === undefined
    ? new Map<string, string>()
    : await withArchivedPages(corpus, flags.archive, (sources) => readAuditPassages(sample.records, sources));
  writeNew('--out', flags.out, writeWorksheet(AUDIT_COLUMNS, auditWorksheetRows(sample, passages)));
  writeNew('--out', drawFile, `${JSON.stringify(draw, null, 2)}\n`);
  progress(`audit sample: ${sample.records.length} of ${sample.frameSize} records in ${sample.strata.length} strata by ${strata}; worksheet ${flags.out}, draw ${drawFile}`);
  if (flags.json) printJson({ ok: true, worksheet: flags.out, draw: drawFile, ...draw, records: sample.records.map(({ city, programId }) => ({ city, programId })) });
}

function writeNew(source: string, file: string, text: string): void {
  try {
    writeFileSync(file, text, { flag: 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliFailure(code === 'EEXIST' ? `${source} ${file}: already exists (a filled worksheet is never overwritten; choose another file)` : `${source} ${file}: cannot be written: ${code ?? (error as Error).message}`);
  }
}
