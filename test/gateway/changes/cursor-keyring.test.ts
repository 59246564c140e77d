import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cursorKey, decodeChangeCursor, encodeChangeCursor, type ChangeCursor } from '../../../gateway/changes/change-cursor.ts';
import { CursorKeyring, MAX_HELD_CURSOR_SECRETS } from '../../../gateway/changes/cursor-keyring.ts';

const position: ChangeCursor = { snapshotMaxId: 9, beforeId: 5, since: '2026-01-01', city: null };
const secret = (n: number) => Buffer.from(`cursor-keyring-test-secret-${n}`);

describe('CursorKeyring', () => {
  it('signs with an adopted secret and still accepts cursors signed before it', () => {
    const keyring = new CursorKeyring(secret(0));
    const before = encodeChangeCursor(position, keyring.signing);
    assert.equal(keyring.adopt(secret(1)), true);
    assert.equal(keyring.signing.id, cursorKey(secret(1)).id);
    assert.deepEqual(decodeChangeCursor(before, keyring.held), { kind: 'position', cursor: position });
    assert.deepEqual(keyring.held.map((key) => key.id), [cursorKey(secret(1)).id, cursorKey(secret(0)).id]);
  });

  it('tells its listeners of an adoption, and of none when the secret is the signing one already', () => {
    const keyring = new CursorKeyring(secret(0));
    let told = 0;
    keyring.onAdopt(() => (told += 1));
    assert.equal(keyring.adopt(secret(0)), false);
    assert.equal(told, 0);
    keyring.adopt(secret(1));
    keyring.adopt(secret(0));
    assert.equal(told, 2);
    assert.equal(keyring.held.length, 2, 'a secret adopted again is held once');
  });

  it(`holds at most ${MAX_HELD_CURSOR_SECRETS} secrets, dropping the oldest`, () => {
    const keyring = new CursorKeyring(secret(0));
    for (let n = 1; n <= MAX_HELD_CURSOR_SECRETS; n += 1) keyring.adopt(secret(n));
    assert.equal(keyring.held.length, MAX_HELD_CURSOR_SECRETS);
    assert.ok(!keyring.held.some((key) => key.id === cursorKey(secret(0)).id));
  });

  it('reports a foreign secret with the identifiers it holds', () => {
    const reports: Array<[string, readonly string[]]> = [];
    const keyring = new CursorKeyring(secret(0), { onUnknownSecret: (id, held) => reports.push([id, held]) });
    keyring.noteUnknownSecret('AAAAAAAA');
    assert.deepEqual(reports, [['AAAAAAAA', [cursorKey(secret(0)).id]]]);
  });
});
