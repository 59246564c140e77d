import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changeEventSchema, changeFeedSchema, type ChangeFeed } from '../../../build/contract/change-feed-schema.ts';
import { createAjv } from '../../../build/corpus/create-ajv.ts';
import { CHANGE_SCOPE_NOTE, changeFeedEnvelope, type ChangeFeedParts } from '../../../gateway/changes/change-feed-envelope.ts';

const validate = createAjv().compile(changeFeedSchema);
const revision = `gm1-${'ab'.repeat(32)}`;
const event = (id: number) => Buffer.from(`{"id":${id},"detectedAt":"2026-10-05T06:00:00Z","city":"beta","programId":"b-${id}","programName":"B ${id}","type":"status-changed","fromStatus":null,"toStatus":"available"}`);
const parts: ChangeFeedParts = {
  bodies: [event(7), event(4)],
  datasetRevision: revision,
  since: '2026-10-01',
  windowStart: '2026-10-01T00:00:00.000Z',
  snapshotMaxId: 7,
  hasMore: true,
  nextCursor: 'abc.def',
  note: null,
};

describe('changeFeedEnvelope', () => {
  const cases: Array<{ name: string; parts: ChangeFeedParts }> = [
    { name: 'a page with a cursor', parts },
    { name: 'the last page', parts: { ...parts, hasMore: false, nextCursor: null } },
    { name: 'an empty page that advanced', parts: { ...parts, bodies: [], note: 'continue' } },
    { name: 'an empty feed', parts: { ...parts, bodies: [], snapshotMaxId: 0, hasMore: false, nextCursor: null } },
  ];
  for (const { name, parts: given } of cases) {
    it(`is a valid ChangeFeed in schema key order: ${name}`, () => {
      const body = JSON.parse(changeFeedEnvelope(given).toString('utf8')) as Record<string, unknown>;
      assert.ok(validate(body), JSON.stringify(validate.errors));
      assert.deepEqual(Object.keys(body), Object.keys(changeFeedSchema.properties));
      assert.equal(body.count, given.bodies.length);
      assert.equal(body.scopeNote, CHANGE_SCOPE_NOTE);
      assert.equal(body.nextCursor, given.nextCursor);
      assert.equal(body.note, given.note);
    });
  }

  it('copies the stored event bytes verbatim, newest first', () => {
    const text = changeFeedEnvelope(parts).toString('utf8');
    assert.ok(text.startsWith(`{"changes":[${event(7).toString()},${event(4).toString()}],"count":2,`));
  });

  it('names the change-event keys in the schema order the build serializes with', () => {
    const body = JSON.parse(changeFeedEnvelope(parts).toString('utf8')) as ChangeFeed;
    const order = Object.keys(changeEventSchema.properties);
    for (const change of body.changes) {
      const keys = Object.keys(change);
      assert.deepEqual(keys, order.filter((key) => keys.includes(key)));
    }
  });
});
