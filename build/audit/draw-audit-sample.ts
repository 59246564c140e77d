/**
 * Draws the strict fact audit's stratified sample so anyone can draw it again from the seed and the corpus
 * (the algorithm, `hra-audit-sample-1`, is stated in docs/decisions.md "The strict fact audit"):
 * proportional allocation by largest remainders, then within each stratum the records with the smallest
 * HMAC-SHA256(seed, "city/programId").
 */
import { createHash, createHmac } from 'node:crypto';
import { compare, type FrameRecord } from './read-audit-frame.ts';

/** The name and version of the drawing rule, written into every worksheet's draw and every report. */
export const SAMPLE_ALGORITHM = 'hra-audit-sample-1';

/** One stratum's share of the frame and of the sample. */
export interface StratumDraw {
  stratum: string;
  population: number;
  sample: number;
}

/** A drawn sample: the frame's digest and size, the strata, and the chosen records in frame order. */
export interface AuditSample {
  frameDigest: string;
  frameSize: number;
  strata: StratumDraw[];
  records: FrameRecord[];
}

/** Draws `size` records from `frame` (in readAuditFrame's order) under `seed`; refuses a size the frame cannot give. */
export function drawAuditSample(frame: readonly FrameRecord[], size: number, seed: string): AuditSample {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`--size must be a whole number of at least 1, not ${size}`);
  if (size > frame.length) throw new RangeError(`--size ${size} is larger than the frame's ${frame.length} licensed live-city records`);
  if (seed === '') throw new RangeError('--seed must not be empty');
  const byStratum = new Map<string, FrameRecord[]>();
  for (const record of frame) {
    const members = byStratum.get(record.stratum);
    if (members === undefined) byStratum.set(record.stratum, [record]);
    else members.push(record);
  }
  const strata = allocate([...byStratum].map(([stratum, members]) => ({ stratum, population: members.length })), size, frame.length);
  const chosen = new Set<FrameRecord>();
  for (const { stratum, sample } of strata) {
    const ranked = (byStratum.get(stratum) ?? []).map((record) => ({ record, rank: rankOf(seed, record) }));
    ranked.sort((a, b) => compare(a.rank, b.rank) || compare(keyOf(a.record), keyOf(b.record)));
    for (const { record } of ranked.slice(0, sample)) chosen.add(record);
  }
  return { frameDigest: frameDigest(frame), frameSize: frame.length, strata, records: frame.filter((record) => chosen.has(record)) };
}

/**
 * Proportional allocation: each stratum gets floor(size * population / total), and the seats left go one
 * each to the largest remainders (ties: the larger stratum, then the stratum name). Strata in name order.
 */
function allocate(populations: { stratum: string; population: number }[], size: number, total: number): StratumDraw[] {
  const shares = populations.map(({ stratum, population }) => {
    const exact = size * population;
    return { stratum, population, sample: Math.floor(exact / total), remainder: exact % total };
  });
  let left = size - shares.reduce((sum, share) => sum + share.sample, 0);
  const order = [...shares].sort((a, b) => b.remainder - a.remainder || b.population - a.population || compare(a.stratum, b.stratum));
  for (const share of order) {
    if (left === 0) break;
    share.sample += 1;
    left -= 1;
  }
  return shares.sort((a, b) => compare(a.stratum, b.stratum)).map(({ stratum, population, sample }) => ({ stratum, population, sample }));
}

function keyOf(record: Pick<FrameRecord, 'city' | 'programId'>): string {
  return `${record.city}/${record.programId}`;
}

function rankOf(seed: string, record: FrameRecord): string {
  return createHmac('sha256', seed).update(keyOf(record)).digest('hex');
}

/** `sha256:` of the frame's lines `city\tprogramId\tstratum\n`, in frame order: what the draw was made from. */
export function frameDigest(frame: readonly Pick<FrameRecord, 'city' | 'programId' | 'stratum'>[]): string {
  const hash = createHash('sha256');
  for (const record of frame) hash.update(`${record.city}\t${record.programId}\t${record.stratum}\n`);
  return `sha256:${hash.digest('hex')}`;
}
