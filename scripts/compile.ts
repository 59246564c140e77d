/**
 * `npm run compile`: emits dist/js with tsc and the corpus schemas' standalone validators
 * (build/corpus/generate-standalone-validators.ts), then writes dist/js/compile-manifest.json, what it was compiled
 * from (build/revision/compiled-sources.ts). The manifest is removed first and written last, and only
 * when tsc succeeded and no source changed while it ran: a compile that failed, was interrupted or raced
 * an edit leaves no manifest, and a tree without one never stands for the sources.
 */
import { spawnSync } from 'node:child_process';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { STANDALONE_VALIDATORS_FILE } from '../build/corpus/corpus-validators.ts';
import { generateStandaloneValidators } from '../build/corpus/generate-standalone-validators.ts';
import { COMPILE_MANIFEST, COMPILED_DIR, hashCompiledSources, PACKAGE_ROOT, type CompileManifest } from '../build/revision/compiled-sources.ts';
import { computeEnrichmentDigest } from '../build/revision/enrichment-digest.ts';

const manifestPath = join(PACKAGE_ROOT, COMPILE_MANIFEST);
rmSync(manifestPath, { force: true });
const before = hashCompiledSources();
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', join(PACKAGE_ROOT, 'tsconfig.json'), '--noEmit', 'false', '--rewriteRelativeImportExtensions', '--outDir', join(PACKAGE_ROOT, COMPILED_DIR)], { stdio: 'inherit' });
if (compiled.status !== 0) {
  process.stderr.write(`compile: tsc failed (${compiled.status ?? compiled.signal}): no ${COMPILE_MANIFEST} written, so hra runs the sources\n`);
  process.exit(compiled.status ?? 1);
}
// From the schemas of the sources this compile read, so the validators stand or fall with its manifest.
const validatorsPath = join(PACKAGE_ROOT, COMPILED_DIR, 'build/corpus', STANDALONE_VALIDATORS_FILE);
writeFileSync(`${validatorsPath}.tmp`, generateStandaloneValidators());
renameSync(`${validatorsPath}.tmp`, validatorsPath);
const manifest: CompileManifest = { sources: before, enrichment: computeEnrichmentDigest(join(PACKAGE_ROOT, 'build')).digest };
const after = hashCompiledSources();
const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((path) => before[path] !== after[path]);
if (changed.length > 0) {
  process.stderr.write(`compile: ${changed[0]} changed while tsc ran: no ${COMPILE_MANIFEST} written; compile again\n`);
  process.exit(1);
}
writeFileSync(`${manifestPath}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`);
renameSync(`${manifestPath}.tmp`, manifestPath);
