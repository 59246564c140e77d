import * as assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { drawAuditSample, frameDigest } from '../../../build/audit/draw-audit-sample.ts';
import type { FrameRecord } from '../../../build/audit/read-audit-frame.ts';

const record = (city: string, programId: string, stratum = city): FrameRecord => ({
  city, programId, name: programId, url: null, stratum, stored: { maxAmount: '', fundingStatus: 'available', phone: '', url: '', deadline: '' }, warcRecordId: undefined, payloadSha256: undefined,
});
// Three strata of 5, 3 and 2 records, in frame order (city, then program id).
const FRAME = [
  ...['a1', 'a2', 'a3', 'a4', 'a5'].map((id) => record('alpha', id)),
  ...['b1', 'b2', 'b3'].map((id) => record('beta', id)),
  ...['g1', 'g2'].map((id) => record('gamma', id)),
];
const keys = (records: readonly FrameRecord[]) => records.map((r) => `${r.city}/${r.programId}`);

describe('drawAuditSample', () => {
  it('allocates in proportion, the seats left to the largest remainders: 4 of 5/3/2 is 2/1/1', () => {
    // 4 * 5/10 = 2.0, 4 * 3/10 = 1.2, 4 * 2/10 = 0.8: floors 2, 1, 0 and the one seat left to gamma's 0.8.
    assert.deepEqual(drawAuditSample(FRAME, 4, 's').strata, [
      { stratum: 'alpha', population: 5, sample: 2 },
      { stratum: 'beta', population: 3, sample: 1 },
      { stratum: 'gamma', population: 2, sample: 1 },
    ]);
  });

  it('takes in each stratum the records of smallest HMAC-SHA256(seed, "city/programId"), as anyone can redraw it', () => {
    const seed = 'audit-2026-12';
    // Redrawn here by the stated rule, without the module: rank every key, keep the first n of each stratum.
    const expected = new Set<string>();
    for (const [city, n] of [['alpha', 2], ['beta', 1], ['gamma', 1]] as const) {
      const ranked = keys(FRAME.filter((r) => r.city === city)).map((key) => [createHmac('sha256', Buffer.from(seed, 'utf8')).update(key, 'utf8').digest('hex'), key] as const);
      ranked.sort(([a], [b]) => (a < b ? -1 : 1));
      for (const [, key] of ranked.slice(0, n)) expected.add(key);
    }
    assert.deepEqual(keys(drawAuditSample(FRAME, 4, seed).records), keys(FRAME).filter((key) => expected.has(key)));
  });

  it('draws the same sample from the same seed and frame, and another from another seed', () => {
    const first = keys(drawAuditSample(FRAME, 4, 'one').records);
    assert.deepEqual(keys(drawAuditSample([...FRAME], 4, 'one').records), first);
    const others = ['two', 'three', 'four', 'five'].map((seed) => keys(drawAuditSample(FRAME, 4, seed).records).join(' '));
    assert.ok(others.some((other) => other !== first.join(' ')), 'another seed draws another sample');
  });

  it('digests the frame it drew from: sha256 of "city\\tprogramId\\tstratum\\n" per record', () => {
    const text = FRAME.map((r) => `${r.city}\t${r.programId}\t${r.stratum}\n`).join('');
    assert.equal(drawAuditSample(FRAME, 1, 's').frameDigest, `sha256:${createHash('sha256').update(text).digest('hex')}`);
    assert.notEqual(frameDigest(FRAME.slice(1)), frameDigest(FRAME));
  });

  it('refuses a size the frame cannot give and an empty seed', () => {
    assert.throws(() => drawAuditSample(FRAME, 11, 's'), /--size 11 is larger than the frame's 10/);
    assert.throws(() => drawAuditSample(FRAME, 0, 's'), /--size must be a whole number of at least 1/);
    assert.throws(() => drawAuditSample(FRAME, 1, ''), /--seed must not be empty/);
  });
});
