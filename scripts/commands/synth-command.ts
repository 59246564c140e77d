/** `hra synth`: writes a deterministic synthetic corpus at a multiple of the published scale, for load tests. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { CliFailure, printJson, progress } from '../cli-failure.ts';
import { loadModules } from '../module-load-failure.ts';

/** Registers `hra synth`. */
export function registerSynthCommand(program: Command): void {
  program
    .command('synth')
    .description('generate a synthetic corpus modelled on a template corpus (same seed, same bytes)')
    .requiredOption('--seed <n>', 'integer seed of the generator')
    .requiredOption('--out <dir>', 'output folder (must not exist, or be empty)')
    .option('--scale <n>', 'multiple of the published scale (1 = about 57,000 rows over 2,200 live cities)', '1')
    .option('--template <dir>', 'template corpus whose distributions the output follows', 'corpus')
    .option('--json', 'print a JSON summary as the last stdout line')
    .action(async (options: { seed: string; out: string; scale: string; template: string; json?: boolean }) => {
      const seed = parseSeed(options.seed);
      const scale = parseScale(options.scale);
      refuseNonEmpty(options.out);
      // Loaded when the command runs: every other command registers this one.
      const [{ loadCorpusOrFail }, { generateSynthCorpus }] = await loadModules(() => Promise.all([import('./load-corpus-or-fail.ts'), import('../../build/synth/generate-synth-corpus.ts')]));
      const template = loadCorpusOrFail(options.template, '--template');
      const started = performance.now();
      const summary = generateSynthCorpus({ template, seed, scale, out: options.out, onProgress: progress });
      const seconds = Math.round(performance.now() - started) / 1000;
      progress(`synth: ${summary.files} files, ${(summary.bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s`);
      if (options.json) printJson({ ok: true, ...summary, seconds });
      else {
        process.stdout.write(
          `wrote ${options.out}: ${summary.liveRows} rows over ${summary.liveCities} live cities ` +
            `(${summary.allCities} cities in all), ${summary.distinctNames} distinct names, ` +
            `${summary.locallyUniqueNames} locally unique, ${summary.distinctUrls} distinct URLs\n`,
        );
      }
    });
}

function parseSeed(text: string): number {
  const seed = Number(text);
  if (!/^-?\d+$/.test(text.trim()) || !Number.isSafeInteger(seed)) throw new CliFailure(`--seed must be an integer, got ${JSON.stringify(text)}`);
  return seed;
}

function parseScale(text: string): number {
  const scale = Number(text);
  if (text.trim() === '' || !Number.isFinite(scale) || scale <= 0) throw new CliFailure(`--scale must be a positive number, got ${JSON.stringify(text)}`);
  if (scale > 100) throw new CliFailure(`--scale ${text} is too large (at most 100)`);
  return scale;
}

function refuseNonEmpty(out: string): void {
  if (!existsSync(out)) return;
  if (!statSync(out).isDirectory()) throw new CliFailure(`--out ${out} exists and is not a folder`);
  if (readdirSync(out).length > 0) throw new CliFailure(`--out ${out} exists and is not empty; refusing to write into it`);
}
