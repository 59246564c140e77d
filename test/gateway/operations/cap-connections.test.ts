/**
 * capConnections on a real loopback server whose handler holds its responses until told: which connection
 * goes when one more than the cap arrives (the oldest silent one, then the longest-idle served one, else
 * the new one), and that a request in progress is never cut off.
 */
import * as assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createDrainableServer, type DrainableServer } from '../../../gateway/operations/drain-server.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A raw connection that records whether the server closed it and what it answered. */
interface Client {
  readonly socket: Socket;
  received: string;
  closed: boolean;
}

describe('capConnections (cap of 3)', () => {
  let served: DrainableServer;
  let port: number;
  let held: ServerResponse[];
  let clients: Client[];

  beforeEach(async () => {
    held = [];
    clients = [];
    served = createDrainableServer({ keepAliveTimeout: 60_000 }, (request, response) => {
      if (request.url === '/hold') held.push(response);
      else response.end('ok');
    }, 3);
    await new Promise<void>((resolve) => served.server.listen(0, '127.0.0.1', resolve));
    port = (served.server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    for (const client of clients) client.socket.destroy();
    for (const response of held) response.end();
    served.server.closeAllConnections();
    await new Promise((resolve) => served.server.close(resolve));
  });

  /** Connects, optionally sends `head`, and waits until the server has seen the connection (and the answer, when asked). */
  async function open(head?: string, waitFor?: string): Promise<Client> {
    const client: Client = { socket: connect(port, '127.0.0.1'), received: '', closed: false };
    clients.push(client);
    client.socket.setEncoding('latin1');
    client.socket.on('data', (chunk: string) => (client.received += chunk));
    client.socket.on('close', () => (client.closed = true));
    client.socket.on('error', () => undefined);
    await new Promise((resolve) => client.socket.once('connect', resolve));
    if (head !== undefined) client.socket.write(head);
    const deadline = performance.now() + 2_000;
    while (waitFor !== undefined && !client.received.includes(waitFor)) {
      assert.ok(performance.now() < deadline, `answer ${waitFor} within 2 s`);
      await sleep(5);
    }
    // The server sees the connection (and a held request) a turn or two later.
    await sleep(50);
    return client;
  }

  it('evicts the oldest silent connection first, then the longest-idle served one', async () => {
    const servedFirst = await open('GET /a HTTP/1.1\r\nHost: x\r\n\r\n', 'ok');
    const servedSecond = await open('GET /b HTTP/1.1\r\nHost: x\r\n\r\n', 'ok');
    const silent = await open();
    assert.equal(served.connections.open, 3);
    const fourth = await open();
    assert.deepEqual([servedFirst.closed, servedSecond.closed, silent.closed, fourth.closed], [false, false, true, false], 'the silent one went');
    // The fourth is silent now too, and newer than nothing: the next evicts it before any served one.
    const fifth = await open();
    assert.deepEqual([servedFirst.closed, servedSecond.closed, fourth.closed, fifth.closed], [false, false, true, false]);
    // A connection that sends its request at once is served.
    const sixth = await open('GET /c HTTP/1.1\r\nHost: x\r\n\r\n', 'ok');
    assert.equal(sixth.closed, false);
    // fifth (silent) went for it; with no silent one left, the longest-idle served connection goes next.
    assert.equal(fifth.closed, true);
    await open();
    assert.deepEqual([servedFirst.closed, servedSecond.closed, sixth.closed], [true, false, false]);
    assert.equal(served.connections.evicted, 4);
    assert.equal(served.connections.open, 3);
  });

  it('never cuts off a request in progress: with every connection busy, the new one is closed at once', async () => {
    for (let index = 0; index < 3; index++) await open('GET /hold HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.equal(held.length, 3);
    const started = performance.now();
    const refused = await open();
    assert.equal(refused.closed, true, 'refused');
    assert.ok(performance.now() - started < 500);
    assert.equal(served.connections.refused, 1);
    assert.ok(clients.slice(0, 3).every((client) => !client.closed), 'the busy ones stay');
    // Once a response ends its connection is idle, and the next newcomer takes its place.
    held[0]?.end('done');
    await sleep(50);
    const next = await open('GET /a HTTP/1.1\r\nHost: x\r\n\r\n', 'ok');
    assert.equal(next.closed, false);
    assert.equal(clients[0]?.closed, true);
    assert.ok(clients[0]?.received.includes('done'), 'its response was delivered first');
  });
});
