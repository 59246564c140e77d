/**
 * Generates a complete synthetic corpus folder at a chosen multiple of the published scale, modelled on
 * a template corpus. Deterministic: the same seed, scale and template give byte-identical files.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPORT_NAMES } from '../contract/report-artifact-schema.ts';
import type { Corpus } from '../corpus/corpus-types.ts';
import { deriveSynthManifest } from './derive-synth-manifest.ts';
import { NdjsonWriter } from './ndjson-writer.ts';
import { planSynthCorpus } from './plan-synth-corpus.ts';
import { readSynthTemplate, type TemplateRow } from './read-synth-template.ts';
import { createSeededRandom } from './seeded-random.ts';
import { SynthChangeLog } from './synth-change-log.ts';
import { SynthCityEmitter, type SynthCounts } from './synth-city-emitter.ts';

/** Inputs of generateSynthCorpus. */
export interface SynthOptions {
  /** The loaded template corpus whose distributions the output follows. */
  template: Corpus;
  seed: number;
  /** Multiple of the published scale; 1 is about 57,000 rows over 2,200 live cities. */
  scale: number;
  /** Output folder; must not exist or be empty. */
  out: string;
  /** Receives progress lines (for stderr). */
  onProgress?: (message: string) => void;
}

/** What was generated. */
export interface SynthSummary extends SynthCounts {
  seed: number;
  scale: number;
  out: string;
  linkChecks: number;
  sourceReviews: number;
  corrections: number;
  quarantined: number;
  changes: number;
  files: number;
  bytes: number;
}

/** Writes the synthetic corpus to `options.out` and returns its counts. */
export function generateSynthCorpus(options: SynthOptions): SynthSummary {
  const { template: corpus, seed, scale, out } = options;
  if (!(scale > 0) || !Number.isFinite(scale)) throw new Error(`scale must be a positive number, got ${scale}`);
  if (existsSync(out) && readdirSync(out).length > 0) throw new Error(`output folder ${out} is not empty`);
  for (const folder of ['programs', 'policy', 'evidence']) mkdirSync(join(out, folder), { recursive: true });

  const random = createSeededRandom(`synth:${seed}`);
  const template = readSynthTemplate(corpus);
  const urlShare = (rows: readonly TemplateRow[]) => (rows.length === 0 ? 1 : rows.filter((entry) => entry.row.url !== null).length / rows.length);
  const plan = planSynthCorpus(scale, { local: urlShare(template.localRows), shared: urlShare(template.sharedRows) }, random.fork('plan'));
  const changes = new SynthChangeLog(template.changes, template.allRowCount, random.fork('changes'));
  const files = {
    cities: new NdjsonWriter(join(out, 'cities.ndjson')),
    linkChecks: new NdjsonWriter(join(out, 'evidence/link-checks.ndjson')),
    sourceReviews: new NdjsonWriter(join(out, 'evidence/source-reviews.ndjson')),
    corrections: new NdjsonWriter(join(out, 'corrections.ndjson')),
    quarantine: new NdjsonWriter(join(out, 'policy/quarantine.ndjson')),
  };
  // The federal layer is copied as it is, with its evidence, ahead of the synthetic cities' lines.
  for (const check of template.national.linkChecks) files.linkChecks.write(check);
  for (const review of template.national.reviews) files.sourceReviews.write(review);
  for (const correction of template.national.corrections) files.corrections.write(correction);
  for (const entry of template.national.quarantine) files.quarantine.write(entry);

  const emitter = new SynthCityEmitter(template, files, join(out, 'programs'), plan.localUrlsPerProgram, changes, random.fork('rows'));
  const largest: Array<{ slug: string; rows: number }> = [];
  plan.cities.forEach((city, index) => {
    const emitted = emitter.emit(city, plan.statePrograms.get(city.state.abbr) ?? [], plan.regional);
    if (city.status === 'live') {
      largest.push(emitted);
      largest.sort((a, b) => b.rows - a.rows);
      largest.length = Math.min(largest.length, 2);
    }
    if ((index + 1) % 500 === 0) options.onProgress?.(`synth: ${index + 1}/${plan.cities.length} cities written`);
  });
  for (const writer of Object.values(files)) writer.close();

  const changeRows = changes.finish();
  writeNdjson(join(out, 'changes.ndjson'), changeRows);
  writeNdjson(join(out, 'national.ndjson'), corpus.national);
  writeNdjson(join(out, 'policy/adjacent-scope.ndjson'), corpus.adjacentRules);
  copyFileSync(join(corpus.root, 'vocabularies.json'), join(out, 'vocabularies.json'));
  copyReports(corpus, out);

  const counts = emitter.counts();
  const [first, second] = largest;
  if (!first) throw new Error('the plan has no live city');
  const manifest = deriveSynthManifest(corpus.manifest, {
    seed, scale,
    defaultCity: first.slug,
    sampleCity: (second ?? first).slug,
    rowRatio: counts.liveRows / template.liveRowCount,
    cityRatio: counts.liveCities / Math.max(1, template.liveCities.length),
  });
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  const sizes = listFiles(out).map((file) => statSync(file).size);
  return {
    seed, scale, out, ...counts,
    linkChecks: files.linkChecks.lines,
    sourceReviews: files.sourceReviews.lines,
    corrections: files.corrections.lines,
    quarantined: files.quarantine.lines,
    changes: changeRows.length,
    files: sizes.length,
    bytes: sizes.reduce((a, b) => a + b, 0),
  };
}

function writeNdjson(path: string, rows: readonly unknown[]): void {
  const writer = new NdjsonWriter(path);
  for (const row of rows) writer.write(row);
  writer.close();
}

/** Reports are frozen artifacts: copied byte for byte, even where their records name template rows. */
function copyReports(corpus: Corpus, out: string): void {
  const present = REPORT_NAMES.filter((name) => corpus.reports[name] !== undefined);
  if (present.length === 0) return;
  mkdirSync(join(out, 'reports'), { recursive: true });
  for (const name of present) copyFileSync(join(corpus.root, 'reports', `${name}.json`), join(out, 'reports', `${name}.json`));
}

// Every file under `dir`, in sorted relative-path order.
function listFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else found.push(path);
    }
  };
  walk(dir);
  return found.sort((a, b) => (relative(dir, a) < relative(dir, b) ? -1 : 1));
}
