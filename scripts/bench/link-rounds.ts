/**
 * The links bench's rounds (`--links --rounds N`): links alone, the archive's first week with quotes and its
 * unchanged second week, run in turn round after round on fresh copies, so each configuration sees the same
 * load; the ratios are taken round by round (each against the links-alone run of its own round), by wall
 * time and by the CPU time (user + system) of the whole process tree.
 */
import { spreadOf, type Spread } from './round-statistics.ts';

/** One run's time: wall seconds, and CPU seconds of the process tree (undefined where GNU time did not read it). */
export interface RunTime {
  seconds: number;
  cpuSeconds: number | undefined;
}

/** One round's three runs. */
export interface LinkRound<R extends RunTime = RunTime> {
  alone: R;
  first: R;
  second: R;
}

/** Medians and min-max over the rounds, per configuration and per ratio to links alone. */
export interface LinkRoundFigures {
  rounds: number;
  wall: { alone: Spread; first: Spread; second: Spread; firstRatio: Spread; secondRatio: Spread };
  /** Absent unless every run's CPU was read. */
  cpu?: { alone: Spread; first: Spread; second: Spread; firstRatio: Spread; secondRatio: Spread };
  /** Each round's ratios, in order: [first / alone, second / alone], by wall and (when read) by CPU. */
  perRound: Array<{ wall: [number, number]; cpu?: [number, number] }>;
}

/** Summarises the rounds; throws on none (a bench that ran nothing has nothing to report). */
export function summarizeLinkRounds(rounds: readonly LinkRound[]): LinkRoundFigures {
  if (rounds.length === 0) throw new Error('no links round ran');
  const wall = (run: RunTime) => run.seconds;
  const withCpu = rounds.every((round) => [round.alone, round.first, round.second].every((run) => run.cpuSeconds !== undefined));
  const cpu = (run: RunTime) => run.cpuSeconds as number;
  const figures = (of: (run: RunTime) => number) => ({
    alone: spreadOf(rounds.map((round) => of(round.alone))),
    first: spreadOf(rounds.map((round) => of(round.first))),
    second: spreadOf(rounds.map((round) => of(round.second))),
    firstRatio: spreadOf(rounds.map((round) => of(round.first) / of(round.alone))),
    secondRatio: spreadOf(rounds.map((round) => of(round.second) / of(round.alone))),
  });
  return {
    rounds: rounds.length,
    wall: figures(wall),
    ...(withCpu ? { cpu: figures(cpu) } : {}),
    perRound: rounds.map((round) => ({
      wall: [round.first.seconds / round.alone.seconds, round.second.seconds / round.alone.seconds],
      ...(withCpu ? { cpu: [cpu(round.first) / cpu(round.alone), cpu(round.second) / cpu(round.alone)] as [number, number] } : {}),
    })),
  };
}

/** The rounds as Markdown: a table of the three configurations by wall and CPU, then the ratios round by round. */
export function renderLinkRounds(figures: LinkRoundFigures): string[] {
  const s = (spread: Spread) => `${spread.median.toFixed(1)} s (${spread.min.toFixed(1)}–${spread.max.toFixed(1)})`;
  const x = (spread: Spread) => `${spread.median.toFixed(2)}x (${spread.min.toFixed(2)}–${spread.max.toFixed(2)})`;
  const { wall, cpu } = figures;
  const row = (label: string, wallSpread: Spread, cpuSpread: Spread | undefined, wallRatio: Spread | undefined, cpuRatio: Spread | undefined) =>
    `| ${label} | ${s(wallSpread)} | ${cpuSpread ? s(cpuSpread) : 'n/a'} | ${wallRatio ? x(wallRatio) : '1'} | ${cpuRatio ? x(cpuRatio) : wallRatio ? 'n/a' : '1'} |`;
  return [
    `${figures.rounds} ${figures.rounds === 1 ? 'round' : 'rounds'}, each running links alone, the first week with quotes and the unchanged second week in turn on fresh copies; medians (min–max), ratios to the links-alone run of the same round (targets: first week at most 1.5x, second at most 1.1x):`,
    '',
    '| run | wall | CPU, process tree (user + system) | / links alone, wall | / links alone, CPU |',
    '|---|---|---|---|---|',
    row('links alone (`--no-quotes`)', wall.alone, cpu?.alone, undefined, undefined),
    row('first week, links and quotes', wall.first, cpu?.first, wall.firstRatio, cpu?.firstRatio),
    row('second week, nothing changed', wall.second, cpu?.second, wall.secondRatio, cpu?.secondRatio),
    '',
    `Round by round, first / alone and second / alone: ${figures.perRound.map((round, index) => `round ${index + 1} wall ${round.wall.map((ratio) => ratio.toFixed(2)).join(' and ')}${round.cpu ? `, CPU ${round.cpu.map((ratio) => ratio.toFixed(2)).join(' and ')}` : ''}`).join('; ')}.`,
  ];
}
