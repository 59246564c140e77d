/**
 * Every command, flag and setting is documented exactly once, and the docs name none that does not exist
 * (README.md, corpus/README.md and docs/*.md, against the registered commands and GATEWAY_SETTINGS).
 *
 * Documented, precisely: each leaf command `hra <path>` has exactly one heading whose text is
 * `` `hra <path>` `` (its section, up to the next heading of the same or a higher level); the section's first
 * code span is its usage line, starting `hra <path>` and naming each of its options' long flags exactly once
 * and no other flag, and each positional argument as `<name>`; each option but `--json` (defined once, under
 * "Conventions of every command") is named again in a code span of the section outside the usage line, where
 * its meaning is, unless the one section "Conventions of every command" names it (`--json`, `--corpus`,
 * `--keys`: the same meaning for every command). Each gateway setting has exactly one table row across the docs
 * with a cell that is its flag, and that row has a cell that is its environment variable. `npm run bench`'s
 * flags are named in its section likewise.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Command, type Option } from 'commander';
import { GATEWAY_SETTINGS } from '../../gateway/config/gateway-settings.ts';
import { BENCH_USAGE } from '../../scripts/bench/bench-options.ts';
import { registerCommands } from '../../scripts/commands/register-commands.ts';
import { codeOf, linesWithFences, readDocFiles, sectionsOf, type DocSection } from '../support/markdown-docs.ts';
import { ROOT } from '../support/run-hra.ts';

/** Flags of other programs the docs show in their commands (node, npm, wrk, git, perf, psql, rclone, aws, sha256sum...), never `hra`'s. */
const OTHER_PROGRAMS_FLAGS = new Set([
  '--import', '--test', '--test-reporter', '--max-old-space-size', '--max-semi-space-size', '--cpu-prof',
  '--perf-basic-prof', '--trace-gc', '--silent', '--noEmit', '--clean', '--latency', '--include', '--exclude', '--delete',
  '--ignore-missing',
]);

/** Flags of the measuring scripts the docs run by path (scripts/bench/*.ts), each held to its script's own source. */
const MEASURING_SCRIPT_FLAGS = new Map([['--labels', 'scripts/bench/measure-pdf-layout.ts']]);
const measuringScriptReads = (flag: string) => {
  const script = MEASURING_SCRIPT_FLAGS.get(flag);
  return script !== undefined && readFileSync(join(ROOT, script), 'utf8').includes(`'${flag}'`);
};

/** Flags commander gives the root program (scripts/hra.ts) and every command, beside the registered options. */
const ROOT_FLAGS = new Set(['--help', '--version']);

/** Every `HRA_` name the code reads directly from `process.env` (sources and tests; settings and options are read by name elsewhere). */
function environmentReadByCode(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|js)$/.test(entry.name)) {
        for (const match of readFileSync(path, 'utf8').matchAll(/env(?:\.|\[')(HRA_[A-Z_]+)/g)) names.add(match[1]!);
      }
    }
  };
  for (const dir of ['build', 'gateway', 'scripts', 'test']) walk(join(ROOT, dir));
  return names;
}

interface CommandEntry {
  path: string;
  options: readonly Option[];
  args: readonly string[];
}

/** Every registered command, leaves and groups, as `hra <path>` would name it. */
function registeredCommands(): { leaves: CommandEntry[]; groups: Set<string> } {
  const program = new Command('hra');
  registerCommands(program);
  const leaves: CommandEntry[] = [];
  const groups = new Set<string>();
  const walk = (command: Command, prefix: string) => {
    for (const sub of command.commands) {
      const path = `${prefix} ${sub.name()}`.trim();
      if (sub.commands.length > 0) {
        groups.add(path);
        walk(sub, path);
      } else leaves.push({ path, options: sub.options, args: sub.registeredArguments.map((arg) => arg.name()) });
    }
  };
  walk(program, '');
  return { leaves, groups };
}

/** The long flag of an option, `--no-quotes` for a negated one as typed. */
function longFlag(option: Option): string {
  assert.ok(option.long, `option ${option.flags} has a long flag`);
  return option.long;
}

/** How many times a flag stands in a text as a whole token. */
function flagCount(text: string, flag: string): number {
  return text.split(new RegExp(`${flag}(?![a-zA-Z0-9-])`)).length - 1;
}

const docs = readDocFiles();
const sections = docs.flatMap((doc) => sectionsOf(doc));
const { leaves, groups } = registeredCommands();
const paths = new Set(leaves.map((leaf) => leaf.path));
const cliFlags = new Set(leaves.flatMap((leaf) => leaf.options.map(longFlag)));
const benchFlags = new Set([...BENCH_USAGE.matchAll(/--[a-z][a-z-]*/g)].map((match) => match[0]));

const CONVENTIONS = 'Conventions of every command';
/** Flags the conventions section names in code: each means the same for every command that takes it. */
const conventionFlags = new Set(
  sections.filter((section) => section.heading === CONVENTIONS).flatMap((section) => codeOf(section.body))
    .flatMap((code) => [...code.matchAll(/^(--[a-z][a-z-]*)(?: <[a-z]+>)?$/g)].map((match) => match[1]!)),
);

/** The one section whose heading is `` `hra <path>` ``. */
function commandSections(path: string): DocSection[] {
  return sections.filter((section) => section.heading === `\`hra ${path}\``);
}

describe('every command and flag is documented exactly once', () => {
  it('finds the registered commands', () => {
    assert.ok(leaves.length >= 15, leaves.map((leaf) => leaf.path).join(', '));
  });

  for (const leaf of leaves) {
    describe(`hra ${leaf.path}`, () => {
      it('has exactly one section, headed `hra <path>`', () => {
        const found = commandSections(leaf.path);
        assert.equal(found.length, 1, `sections for hra ${leaf.path}: ${found.map((section) => section.file).join(', ') || 'none'}`);
      });

      it('opens with a usage line naming each of its flags once, its arguments, and no other flag', () => {
        const section = commandSections(leaf.path)[0];
        assert.ok(section, `a section for hra ${leaf.path}`);
        const usage = codeOf(section.body)[0] ?? '';
        assert.match(usage, new RegExp(`^hra ${leaf.path}( |$)`), `usage line of hra ${leaf.path}: ${usage}`);
        for (const option of leaf.options) assert.equal(flagCount(usage, longFlag(option)), 1, `${longFlag(option)} once in: ${usage}`);
        for (const arg of leaf.args) assert.ok(usage.includes(`<${arg}>`), `<${arg}> in: ${usage}`);
        const own = new Set(leaf.options.map(longFlag));
        for (const [flag] of usage.matchAll(/--[a-z][a-z-]*/g)) assert.ok(own.has(flag), `${flag} is no option of hra ${leaf.path}`);
      });

      it('names each flag again where it says what it does, or the conventions do', () => {
        const section = commandSections(leaf.path)[0];
        assert.ok(section);
        const [, ...described] = codeOf(section.body);
        const text = described.join('\n');
        for (const option of leaf.options) {
          if (conventionFlags.has(longFlag(option))) continue;
          assert.ok(flagCount(text, longFlag(option)) >= 1, `hra ${leaf.path}: ${longFlag(option)} is described in its section`);
        }
      });
    });
  }

  it('says what `hra --version` prints', () => {
    assert.ok(docs.some((doc) => codeOf(doc.text).some((code) => code === 'hra --version')), 'a code span `hra --version`');
  });

  it('has one section of conventions, which says what --json does', () => {
    assert.equal(sections.filter((section) => section.heading === CONVENTIONS).length, 1);
    assert.ok(conventionFlags.has('--json'), 'the conventions say what --json does');
  });

  it('names each bench flag in the section of `npm run bench`', () => {
    const bench = sections.filter((section) => section.heading.includes('`npm run bench`'));
    assert.equal(bench.length, 1);
    const code = codeOf(bench[0]!.body);
    const usage = code[0] ?? '';
    const text = code.slice(1).join('\n');
    for (const flag of benchFlags) {
      assert.equal(flagCount(usage, flag), 1, `${flag} once in the bench usage line`);
      assert.ok(flagCount(text, flag) >= 1, `${flag} is described`);
    }
  });
});

describe('every gateway setting has exactly one table row', () => {
  const rows = docs.flatMap((doc) => linesWithFences(doc.text).filter(({ line, fenced }) => !fenced && line.startsWith('|'))
    .map(({ line }) => ({ file: doc.file, cells: line.slice(1, line.lastIndexOf('|')).split('|').map((cell) => cell.trim()) })));
  for (const setting of GATEWAY_SETTINGS) {
    it(`${setting.name}: ${setting.flag}, ${setting.env}`, () => {
      const flag = setting.flag.split(' ')[0]!;
      const byFlag = rows.filter((row) => row.cells.includes(`\`${setting.flag}\``) || row.cells.includes(`\`${flag}\``));
      assert.equal(byFlag.length, 1, `rows documenting ${setting.flag}: ${byFlag.map((row) => row.file).join(', ') || 'none'}`);
      assert.ok(byFlag[0]!.cells.includes(`\`${setting.env}\``), `the row of ${setting.flag} names ${setting.env}`);
      assert.equal(rows.filter((row) => row.cells.includes(`\`${setting.env}\``)).length, 1, `one row documents ${setting.env}`);
    });
  }
});

describe('the docs name no command, flag or setting that does not exist', () => {
  const code = docs.flatMap((doc) => codeOf(doc.text).map((text) => ({ file: doc.file, text })));

  it('every `hra <command>` in the docs\' code is a registered command or group', () => {
    for (const { file, text } of code) {
      // `hra bench: ...` and `hra: ...` are message prefixes, not commands.
      for (const match of text.matchAll(/(?<![\w./-])hra ([a-z]+)(?: ([a-z]+))?(?![\w:-])/g)) {
        const first = match[1]!;
        const second = match[2];
        if (groups.has(first)) {
          if (second !== undefined && !/^(?:--|<)/.test(second)) assert.ok(paths.has(`${first} ${second}`), `${file}: hra ${first} ${second} in \`${text}\``);
          continue;
        }
        assert.ok(paths.has(first), `${file}: hra ${first} in \`${text}\``);
      }
    }
  });

  it('every --flag in the docs\' code is a flag of hra, of the bench, or of a program listed here', () => {
    for (const { file, text } of code) {
      for (const [flag] of text.matchAll(/(?<![\w-])--[a-zA-Z][a-zA-Z-]*/g)) {
        assert.ok(cliFlags.has(flag) || ROOT_FLAGS.has(flag) || benchFlags.has(flag) || OTHER_PROGRAMS_FLAGS.has(flag) || measuringScriptReads(flag), `${file}: ${flag} in \`${text}\``);
      }
    }
  });

  it('every HRA_ variable in the docs is a gateway setting, an option\'s variable, or one the code reads', () => {
    const read = environmentReadByCode();
    for (const setting of GATEWAY_SETTINGS) read.add(setting.env);
    for (const leaf of leaves) for (const option of leaf.options) if (option.envVar) read.add(option.envVar);
    for (const { file, text } of docs) {
      for (const [name] of text.matchAll(/\bHRA_[A-Z_]+/g)) assert.ok(read.has(name), `${file}: ${name} is read by no code`);
    }
  });
});
