/**
 * The dataset path `hra serve` is started with, read before commander is loaded (served-dataset-path.ts):
 * it must be the path parseGatewayConfig resolves from the same flag, environment and default, and nothing
 * for arguments that do not start the server.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { parseGatewayConfig } from '../../../gateway/config/parse-gateway-config.ts';
import { servedDatasetPath } from '../../../scripts/commands/served-dataset-path.ts';
import { ROOT } from '../../support/run-hra.ts';

const CASES: Array<{ name: string; args: string[]; env?: Record<string, string>; flag?: string }> = [
  { name: 'the default', args: ['serve', '--port', '0'] },
  { name: '--dataset <file>', args: ['serve', '--dataset', 'x/a.sqlite', '--port', '0'], flag: 'x/a.sqlite' },
  { name: '--dataset=<file>', args: ['serve', '--dataset=/abs/b.sqlite'], flag: '/abs/b.sqlite' },
  { name: 'the last --dataset, as commander takes it', args: ['serve', '--dataset', 'a.sqlite', '--dataset', 'b.sqlite'], flag: 'b.sqlite' },
  { name: 'HRA_DATASET', args: ['serve'], env: { HRA_DATASET: 'env.sqlite' } },
  { name: 'the flag over HRA_DATASET', args: ['serve', '--dataset', 'flag.sqlite'], env: { HRA_DATASET: 'env.sqlite' }, flag: 'flag.sqlite' },
  { name: 'an empty HRA_DATASET as unset', args: ['serve'], env: { HRA_DATASET: '' } },
];

describe('servedDatasetPath', () => {
  for (const { name, args, env = {}, flag } of CASES) {
    it(`resolves ${name} as hra serve does`, () => {
      const expected = parseGatewayConfig(flag === undefined ? {} : { dataset: flag }, env).dataset;
      assert.equal(servedDatasetPath(args, env), expected);
      assert.equal(expected, resolve(expected));
    });
  }

  const none: Array<[string, string[]]> = [
    ['another command', ['build', '--corpus', 'corpus', '--out', 'dist']],
    ['no command', ['--version']],
    ['help asked for', ['serve', '--help']],
    ['a --dataset with no value', ['serve', '--dataset']],
  ];
  for (const [name, args] of none) it(`starts nothing for ${name}`, () => assert.equal(servedDatasetPath(args, {}), undefined));

  it('reads no option after --', () => {
    assert.equal(servedDatasetPath(['serve', '--', '--dataset', 'late.sqlite'], {}), resolve('dist/current.sqlite'));
  });
  it('skips the early hash exactly where docs/operators.md says it does', () => {
    const operators = readFileSync(join(ROOT, 'docs/operators.md'), 'utf8');
    const paragraph = /\*\*When the early hash is skipped:\*\*([^]*?)\n\n/.exec(operators)?.[1] ?? '';
    // Each documented case, with the phrase that names it and arguments that show it.
    const skipped: Array<[string, string[]]> = [
      ['`serve` is not the first word', ['keys', 'serve']],
      ['with `--help`', ['serve', '--help']],
      ['`--dataset` given no value', ['serve', '--dataset']],
    ];
    for (const [phrase, args] of skipped) {
      assert.ok(paragraph.replace(/\s+/g, ' ').includes(phrase), `operators.md names: ${phrase}`);
      assert.equal(servedDatasetPath(args, {}), undefined, args.join(' '));
    }
    // npm start serves through scripts/start.ts, which never reads the arguments first.
    assert.match(paragraph, /under `npm start`/);
    assert.doesNotMatch(readFileSync(join(ROOT, 'scripts/start.ts'), 'utf8'), /startSnapshotHash/);
  });
});
