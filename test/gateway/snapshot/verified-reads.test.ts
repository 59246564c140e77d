/**
 * Reads that race a write (issue 33, item 1): another revision's bytes written over the served file are
 * never served, whatever the timing. The requests are in the gateway's socket buffers before the write and
 * are read in the same turn of its event loop as the write's watch event, ahead of the watch's check, so
 * each one reads the file before the write is noticed: only the check of every body read can refuse them.
 */
import * as assert from 'node:assert/strict';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { copySnapshotWithDigests } from '../../support/segmented-snapshot.ts';
import { startTestGateway, type TestGateway } from '../../support/start-test-gateway.ts';
import { publishTwoRevisions, type TwoRevisions } from '../operations/serve-process.ts';

/** Routes whose bodies no request has read yet when the write lands (so none comes from a cache). */
const COLD_PATHS = [
  '/api/programs/beta',
  '/api/programs/alpha?status=available',
  '/api/programs/beta/b-repair',
  '/api/programs/national',
  '/api/changes?since=2026-01-01',
  '/api/cities',
  '/api/cities/counts',
  '/api/sample',
] as const;

interface RawAnswer {
  path: string;
  status: number;
  revision: string | undefined;
  body: string;
}

/** Parses one `Connection: close` HTTP/1.1 answer (the gateway sends Content-Length bodies). */
function parseAnswer(path: string, raw: Buffer): RawAnswer {
  const text = raw.toString('utf8');
  const split = text.indexOf('\r\n\r\n');
  const head = text.slice(0, split).split('\r\n');
  const header = (name: string) => head.find((line) => line.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim();
  return { path, status: Number(head[0]?.split(' ')[1]), revision: header('x-dataset-revision'), body: text.slice(split + 4) };
}

/** Opens a connection and writes a request on it, without waiting for the answer. */
async function sendRaw(url: string, path: string, key: string): Promise<{ socket: Socket; answer: Promise<RawAnswer> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const answer = once(socket, 'end').then(() => parseAnswer(path, Buffer.concat(chunks)));
  return { socket, answer };
}

/** Writes `bytes` over the file in place: the same inode, as `cp` over it or a stray `dd` would. */
function writeOverInPlace(file: string, bytes: Buffer): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, 0);
  } finally {
    closeSync(fd);
  }
}

/** A copy of `bytes` with every occurrence of `from` replaced by `to`, of the same length. */
function replaceAll(bytes: Buffer, from: string, to: string): Buffer {
  assert.equal(from.length, to.length);
  const out = Buffer.from(bytes);
  const needle = Buffer.from(from);
  let count = 0;
  for (let at = out.indexOf(needle); at >= 0; at = out.indexOf(needle, at + 1)) {
    out.write(to, at, 'latin1');
    count += 1;
  }
  assert.ok(count > 10, `${from} occurs ${count} times`);
  return out;
}

describe('verified reads: a body read from the served file is checked before it is served or cached', () => {
  let revisions: TwoRevisions;
  let gateway: TestGateway;
  let served: string;
  let pristine: Buffer;
  before(async () => {
    revisions = await publishTwoRevisions();
    served = join(revisions.dir, 'served.sqlite');
    copySnapshotWithDigests(revisions.a.file, served);
    pristine = readFileSync(served);
    gateway = await startTestGateway({ flags: { dataset: served } });
  });
  after(async () => {
    await gateway?.close();
    revisions?.remove();
  });

  it('revision B\'s bytes written over the file while requests are being read: each answer is 503 or A\'s own bytes, and A serves again once restored', async (t) => {
    const { a, b } = revisions;
    const other = replaceAll(pristine, a.revision.slice(4), b.revision.slice(4));
    const sent = await Promise.all(COLD_PATHS.map((path) => sendRaw(gateway.url, path, gateway.keys.commercial)));
    // The requests go out on the wire first, then the write, all in this one synchronous stretch.
    for (const [index, { socket }] of sent.entries()) {
      socket.write(`GET ${COLD_PATHS[index]} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: ${gateway.keys.commercial}\r\nConnection: close\r\n\r\n`);
    }
    writeOverInPlace(served, other);
    const answers = await Promise.all(sent.map(({ answer }) => answer));

    for (const answer of answers) {
      assert.ok(!answer.body.includes(b.revision.slice(4)), `${answer.path}: ${answer.status} served bytes of revision B under ${answer.revision}`);
      if (answer.status === 200) {
        assert.equal(answer.revision, a.revision, `${answer.path}: X-Dataset-Revision`);
      } else {
        assert.equal(answer.status, 503, `${answer.path}: ${answer.body}`);
        assert.equal((JSON.parse(answer.body) as { code: string }).code, 'DATASET_UNAVAILABLE');
      }
    }

    t.diagnostic(`answers read across the write: ${answers.map((answer) => `${answer.path} ${answer.status}`).join(', ')}`);
    // The reads met B's bytes before the watch could notice the write: the check of what they read refused them.
    assert.ok(answers.some((answer) => answer.status === 503), 'some read met the written bytes');

    writeOverInPlace(served, pristine);
    const deadline = performance.now() + 10_000;
    for (;;) {
      const response = await gateway.get('/api/programs/beta', { key: gateway.keys.commercial });
      const body = await response.text();
      if (response.status === 200) {
        assert.equal(response.headers.get('x-dataset-revision'), a.revision);
        assert.ok(body.includes(a.revision) && !body.includes(b.revision.slice(4)), 'A\'s own bytes after the restore');
        break;
      }
      assert.ok(performance.now() < deadline, `not served again within 10 s of the restore: ${response.status} ${body}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // The restored file's bodies pass their check on every route, read from the file afresh.
    for (const path of COLD_PATHS) {
      const response = await gateway.get(path, { key: gateway.keys.commercial });
      const body = await response.text();
      assert.equal(response.status, 200, `${path}: ${body}`);
      assert.equal(response.headers.get('x-dataset-revision'), a.revision);
      assert.ok(!body.includes(b.revision.slice(4)), `${path}: no byte of B`);
    }
  });
});
