/**
 * Builds the same corpus with two trees' own `hra build` and compares what they wrote
 * (compare-snapshots.ts), then breaks a copy of the corpus in several ways and compares what both builds
 * say about it: exit code, stdout, stderr and the `--json` problem list, which must be the same text. The
 * check behind every change to the build's speed (issue 25): faster, not different.
 *
 *   node --import tsx scripts/bench/compare-build-output.ts <tree A> <tree B> <corpus dir>
 *
 * A tree is a checkout with node_modules (scripts/bench/compare-tree.ts makes one of any git ref).
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { compareSnapshots } from './compare-snapshots.ts';
import { hraCommand } from './measure-build.ts';

interface BuildOutput {
  status: number | null;
  stdout: string;
  stderr: string;
}

function build(tree: string, corpus: string, out: string, json: boolean): BuildOutput {
  const args = [...hraCommand(tree), 'build', '--corpus', corpus, '--out', out, ...(json ? ['--json'] : [])];
  const result = spawnSync(process.execPath, args, { cwd: tree, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  // Progress lines carry seconds and the path of the temporary output; neither is a difference.
  const stderr = result.stderr.split('\n').filter((line) => !/^(build|snapshot): /.test(line)).join('\n').replaceAll(out, '<out>');
  const stdout = result.stdout.replaceAll(out, '<out>');
  return { status: result.status, stdout, stderr };
}

/**
 * Breaks a copy of the corpus in ways each check of the loader reports: a line that is not JSON, a
 * schema violation, a duplicate id, a vocabulary value that does not exist, a byte-order mark, a program
 * file of no city, a correction of no record; bytes that are not UTF-8, a duplicate key, a blank line, a
 * line that is not an object, a correction that leaves its row invalid, a file in programs/ that is not
 * .ndjson; and a bad row in cities.ndjson, evidence/link-checks.ndjson and corrections.ndjson, which the
 * loader reads in another order than it lists their problems.
 */
function breakCorpus(from: string, to: string): string[] {
  cpSync(from, to, { recursive: true });
  const programs = readdirSync(join(to, 'programs')).filter((name) => name.endsWith('.ndjson')).sort();
  const pick = (index: number) => join(to, 'programs', programs[Math.floor((index * programs.length) / 7)]!);
  const firstLine = (file: string) => readFileSync(file, 'utf8').split('\n')[0]!;
  const edits: string[] = [];
  appendFileSync(pick(1), '{"id": "broken-json", "name": \n');
  edits.push('a line that is not JSON');
  const row = JSON.parse(firstLine(pick(2))) as Record<string, unknown>;
  appendFileSync(pick(2), `${JSON.stringify({ ...row, id: `${String(row.id)}-second`, fundingStatus: 'maybe', maxAmount: 'lots' })}\n`);
  edits.push('a row with two schema violations');
  appendFileSync(pick(3), `${firstLine(pick(3))}\n`);
  edits.push('a duplicate id');
  const typed = JSON.parse(firstLine(pick(4))) as Record<string, unknown>;
  appendFileSync(pick(4), `${JSON.stringify({ ...typed, id: `${String(typed.id)}-typed`, projectTypes: ['no-such-project-type'] })}\n`);
  edits.push('an unknown project type');
  writeFileSync(pick(5), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(pick(5))]));
  edits.push('a byte-order mark');
  writeFileSync(join(to, 'programs', 'no-such-city.ndjson'), `${firstLine(pick(6))}\n`);
  edits.push('a program file of no city');
  appendFileSync(join(to, 'corrections.ndjson'), `${JSON.stringify({ city: 'no-such-city', programId: 'none', field: 'name', value: 'x', reason: 'test', date: '2026-01-01' })}\n`);
  edits.push('a correction of no record');
  const pickMore = (index: number) => join(to, 'programs', programs[Math.floor((index * programs.length) / 13) + 1]!);
  appendFileSync(pickMore(1), Buffer.concat([Buffer.from('{"id": "not-utf8", "name": "caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]));
  edits.push('bytes that are not UTF-8');
  appendFileSync(pickMore(2), `${firstLine(pickMore(2)).replace(/}$/, ', "id": "shadow"}')}\n`);
  edits.push('a duplicate key');
  appendFileSync(pickMore(3), `\n${firstLine(pickMore(3)).replace(/"id":\s*"/, '"id": "after-blank-')}\n`);
  edits.push('a blank line');
  appendFileSync(pickMore(4), '[1, 2]\n');
  edits.push('a line that is not an object');
  const corrected = JSON.parse(firstLine(pickMore(5))) as Record<string, unknown>;
  const correctedCity = basename(pickMore(5), '.ndjson');
  appendFileSync(join(to, 'corrections.ndjson'), `${JSON.stringify({ city: correctedCity, programId: corrected.id, field: 'fundingStatus', value: 'maybe', reason: 'test', date: '2026-01-02' })}\n`);
  edits.push('a correction that leaves its row invalid');
  writeFileSync(join(to, 'programs', 'notes.txt'), 'not a program file\n');
  edits.push('a file in programs/ that is not .ndjson');
  for (const [file, edit] of [
    ['cities.ndjson', (row: Record<string, unknown>) => { row.lat = 200; }],
    ['evidence/link-checks.ndjson', (row: Record<string, unknown>) => { row.checkedAt = '2026-13-01'; }],
    ['corrections.ndjson', (row: Record<string, unknown>) => { row.field = 'freshness'; }],
  ] as const) {
    const lines = readFileSync(join(to, file), 'utf8').split('\n');
    const row = JSON.parse(lines[1]!) as Record<string, unknown>;
    edit(row);
    lines[1] = JSON.stringify(row);
    writeFileSync(join(to, file), lines.join('\n'));
  }
  edits.push('a bad row in cities.ndjson, link-checks.ndjson and corrections.ndjson');
  return edits;
}

/** The broken copy of breakCorpus with vocabularies.json invalid too: rows are then checked against the schema only. */
function breakVocabularies(from: string, to: string): string[] {
  const edits = breakCorpus(from, to);
  const file = join(to, 'vocabularies.json');
  writeFileSync(file, readFileSync(file, 'utf8').replace('"categories"', '"kategories"'));
  return [...edits, 'an invalid vocabularies.json'];
}

function compareOutputs(label: string, a: BuildOutput, b: BuildOutput): string[] {
  const differences: string[] = [];
  if (a.status !== b.status) differences.push(`${label}: exit ${a.status} against ${b.status}`);
  if (a.stdout !== b.stdout) differences.push(`${label}: stdout differs`);
  if (a.stderr !== b.stderr) differences.push(`${label}: stderr differs:\n--- A\n${a.stderr}\n--- B\n${b.stderr}`);
  return differences;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [treeA, treeB, corpusArg] = process.argv.slice(2).map((path) => resolve(path));
  if (treeA === undefined || treeB === undefined || corpusArg === undefined) {
    process.stderr.write('usage: compare-build-output.ts <tree A> <tree B> <corpus dir>\n');
    process.exit(2);
  }
  const work = mkdtempSync(join(tmpdir(), 'hra-compare-build-'));
  const differences: string[] = [];
  try {
    const outA = join(work, 'a');
    const outB = join(work, 'b');
    const builtA = build(treeA, corpusArg, outA, true);
    const builtB = build(treeB, corpusArg, outB, true);
    if (builtA.status !== 0 || builtB.status !== 0) differences.push(...compareOutputs('build', builtA, builtB), 'a build failed');
    else {
      const summaryOf = (output: BuildOutput) => {
        const { revision: _revision, file: _file, ...summary } = JSON.parse(output.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
        return JSON.stringify(summary);
      };
      if (summaryOf(builtA) !== summaryOf(builtB)) differences.push('build --json summaries differ (beyond revision and file)');
      const result = compareSnapshots(join(outA, 'current.sqlite'), join(outB, 'current.sqlite'));
      for (const line of result.tables) process.stdout.write(`${line}\n`);
      differences.push(...result.differences);
    }

    for (const [name, breakCopy] of [['broken corpus', breakCorpus], ['broken vocabularies', breakVocabularies]] as const) {
      const broken = join(work, name.replace(' ', '-'), 'corpus');
      const edits = breakCopy(corpusArg, broken);
      for (const json of [false, true]) {
        const failedA = build(treeA, broken, join(work, 'broken-a'), json);
        const failedB = build(treeB, broken, join(work, 'broken-b'), json);
        if (failedA.status === 0) differences.push(`the ${name} built`);
        differences.push(...compareOutputs(`${name}${json ? ' --json' : ''}`, failedA, failedB));
        const problems = json ? (JSON.parse(failedA.stdout.trim().split('\n').at(-1) ?? '{}') as { problems?: unknown[] }).problems?.length : undefined;
        process.stdout.write(`${name}${json ? ' --json' : ''} (${edits.join(', ')}): exit ${failedA.status}, ${failedA.stderr.split('\n').filter(Boolean).length} stderr lines${problems === undefined ? '' : `, ${problems} problems`}\n`);
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  for (const line of differences) process.stdout.write(`DIFFERENT: ${line}\n`);
  process.stdout.write(differences.length === 0 ? 'same output\n' : 'output differs\n');
  process.exit(differences.length === 0 ? 0 : 1);
}
