/** The links bench's rounds: medians and ratios round by round, by wall and by CPU, and the corpus move to `.test` hosts. */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { moveToTestHosts } from '../../../scripts/bench/bench-links.ts';
import { parseBenchOptions } from '../../../scripts/bench/bench-options.ts';
import { renderLinkRounds, summarizeLinkRounds } from '../../../scripts/bench/link-rounds.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const run = (seconds: number, cpuSeconds?: number) => ({ seconds, cpuSeconds });

describe('summarizeLinkRounds', () => {
  const rounds = [
    { alone: run(10, 8), first: run(25, 30), second: run(12, 9) },
    { alone: run(20, 8), first: run(30, 32), second: run(30, 10) },
    { alone: run(10, 10), first: run(20, 28), second: run(10, 9) },
  ];

  it('takes each ratio within its own round, then the median and min-max of the rounds', () => {
    const figures = summarizeLinkRounds(rounds);
    assert.equal(figures.rounds, 3);
    assert.deepEqual(figures.wall.alone, { median: 10, min: 10, max: 20 });
    // Round by round 2.5, 1.5, 2: not the median 25 over the median 10.
    assert.deepEqual(figures.wall.firstRatio, { median: 2, min: 1.5, max: 2.5 });
    assert.deepEqual(figures.wall.secondRatio, { median: 1.2, min: 1, max: 1.5 });
    assert.deepEqual(figures.cpu?.secondRatio, { median: 1.125, min: 0.9, max: 1.25 });
    assert.deepEqual(figures.perRound.map((round) => round.cpu), [[3.75, 1.125], [4, 1.25], [2.8, 0.9]]);
  });

  it('leaves the CPU out when one run\'s was not read, and refuses no rounds', () => {
    const figures = summarizeLinkRounds([...rounds, { alone: run(10), first: run(20, 1), second: run(11, 1) }]);
    assert.equal(figures.cpu, undefined);
    assert.equal(figures.perRound.at(-1)?.cpu, undefined);
    assert.ok(renderLinkRounds(figures).some((line) => line.startsWith('| second week, nothing changed | 11.5 s (10.0–30.0) | n/a | 1.15x (1.00–1.50) | n/a |')));
    assert.throws(() => summarizeLinkRounds([]), /no links round ran/);
  });

  it('renders the three configurations, their ratios and every round', () => {
    const lines = renderLinkRounds(summarizeLinkRounds(rounds));
    assert.deepEqual(lines.filter((line) => line.startsWith('| ') && !line.startsWith('| run')), [
      '| links alone (`--no-quotes`) | 10.0 s (10.0–20.0) | 8.0 s (8.0–10.0) | 1 | 1 |',
      '| first week, links and quotes | 25.0 s (20.0–30.0) | 30.0 s (28.0–32.0) | 2.00x (1.50–2.50) | 3.75x (2.80–4.00) |',
      '| second week, nothing changed | 12.0 s (10.0–30.0) | 9.0 s (9.0–10.0) | 1.20x (1.00–1.50) | 1.13x (0.90–1.25) |',
    ]);
    assert.equal(lines.at(-1), 'Round by round, first / alone and second / alone: round 1 wall 2.50 and 1.20, CPU 3.75 and 1.13; round 2 wall 1.50 and 1.50, CPU 4.00 and 1.25; round 3 wall 2.00 and 1.00, CPU 2.80 and 0.90.');
  });
});

describe('parseBenchOptions, --links rounds', () => {
  it('runs one round of the links bench unless --rounds asks for more', () => {
    assert.equal(parseBenchOptions(['--links']).rounds, 1);
    assert.equal(parseBenchOptions(['--links', '--quick']).rounds, 1);
    assert.equal(parseBenchOptions(['--links', '--quick', '--rounds', '3']).rounds, 3);
    assert.equal(parseBenchOptions(['--quick']).rounds, 2, 'the gateway bench keeps its own default');
  });
});

describe('moveToTestHosts', () => {
  it('moves every URL onto a .test host and leaves no file aside', () => {
    const corpus = makeTempDir('hra-bench-move-');
    mkdirSync(join(corpus, 'programs'));
    mkdirSync(join(corpus, 'evidence'));
    writeFileSync(join(corpus, 'national.ndjson'), '{"url":"https://www.hud.gov/x"}\n');
    writeFileSync(join(corpus, 'corrections.ndjson'), '');
    writeFileSync(join(corpus, 'evidence/link-checks.ndjson'), '{"url":"http://a.example.org/y?z=1","outcome":"live"}\n');
    writeFileSync(join(corpus, 'programs/ohio.ndjson'), '{"sourceUrl":"https://housing.ohio.example.org/x"}\n');
    moveToTestHosts(corpus);
    assert.equal(readFileSync(join(corpus, 'national.ndjson'), 'utf8'), '{"url":"http://www.hud.gov.test/x"}\n');
    assert.equal(readFileSync(join(corpus, 'evidence/link-checks.ndjson'), 'utf8'), '{"url":"http://a.example.org.test/y?z=1","outcome":"live"}\n');
    assert.equal(readFileSync(join(corpus, 'programs/ohio.ndjson'), 'utf8'), '{"sourceUrl":"http://housing.ohio.example.org.test/x"}\n');
    assert.deepEqual([readdirSync(corpus).sort(), readdirSync(join(corpus, 'programs'))], [['corrections.ndjson', 'evidence', 'national.ndjson', 'programs'], ['ohio.ndjson']]);
    assert.equal(existsSync(join(corpus, 'national.ndjson.moving')), false);
  });
});
