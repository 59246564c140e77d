/** `hra rehearse`: the whole weekly workflow and the auditor's order offline, on rehearsal data (scripts/rehearse/). */
import type { Command } from 'commander';
import { printJson, progress } from '../cli-failure.ts';
import { loadModules } from '../module-load-failure.ts';

/** The flags as commander hands them over. */
interface RehearseFlags {
  out?: string;
  keep?: boolean;
  json?: boolean;
}

/** Registers `hra rehearse` on the root program. */
export function registerRehearseCommand(program: Command): void {
  program
    .command('rehearse')
    .description('run the weekly workflow and the auditor\'s order offline, on a copy of the demo corpus checked against a loopback site')
    .option('--out <dir>', 'write the rehearsal here (a new or empty folder; kept); default: a new temporary folder')
    .option('--keep', 'keep the temporary folder at the end')
    .option('--json', 'print a JSON summary as the last stdout line')
    .action(async (flags: RehearseFlags) => {
      const started = Date.now();
      // With --json, stdout is the summary alone: the step lines go to stderr.
      const print = flags.json ? progress : (line: string) => process.stdout.write(`${line}\n`);
      // Loaded when the command runs: every other command registers this one.
      const { removeRehearsal, runRehearsal } = await loadModules(() => import('../rehearse/run-rehearsal.ts'));
      const result = await runRehearsal({ out: flags.out, keep: flags.keep, print });
      const seconds = (Date.now() - started) / 1000;
      if (!result.kept) removeRehearsal(result.dir);
      if (flags.json) {
        printJson({ ok: true, dir: result.dir, kept: result.kept, revision: result.revision, steps: result.steps, seconds });
        return;
      }
      if (!result.kept) {
        print(`done in ${seconds.toFixed(1)} s; removed ${result.dir} (pass --keep or --out <dir> to keep the rehearsal)`);
        return;
      }
      const dir = result.dir;
      print(`done in ${seconds.toFixed(1)} s; the rehearsal is in ${dir} (its REHEARSAL.md says what it is). Try next, from the project folder:`);
      print(`  npx hra links report --corpus ${dir}/corpus --markdown`);
      print(`  npx hra digest --corpus ${dir}/corpus`);
      print(`  npx hra verify ${dir}/dist/current.sqlite --corpus ${dir}/corpus --archive ${dir}/archive`);
      print(`  npx hra quotes replay --corpus ${dir}/corpus --archive ${dir}/archive --verify`);
      print(`  npx hra serve --dataset ${dir}/dist/current.sqlite --keys ${dir}/dist/keys.sqlite --port 8081`);
    });
}
