/**
 * The drain tracker on a real node:http server over loopback: responses in flight are counted from the
 * moment node makes them until they close, every response whose head leaves after the drain began says
 * `Connection: close`, and the deadline counts what it cuts off.
 */
import * as assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { createDrainableServer } from '../../../gateway/operations/drain-server.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A server whose `/hold` requests wait until released; every other path answers at once. */
async function heldServer() {
  const held: ServerResponse[] = [];
  const { server, drain } = createDrainableServer({ keepAliveTimeout: 5_000 }, (request: IncomingMessage, response: ServerResponse) => {
    if (request.url === '/hold') held.push(response);
    else response.end(`answer ${request.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, drain, held, port };
}

/** What a socket received so far, and everything it received once it closes. */
function collect(socket: Socket): { readonly text: string; closed: Promise<string> } {
  const received = { text: '', closed: Promise.resolve('') };
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (received.text += chunk));
  received.closed = new Promise((resolve) => socket.on('close', () => resolve(received.text)));
  return received;
}

/** Opens a connection to `port` and writes `requests` on it (pipelined when there are several). */
function send(port: number, ...requests: string[]): Socket & { received: { readonly text: string; closed: Promise<string> } } {
  const socket = connect(port, '127.0.0.1');
  const received = collect(socket);
  socket.write(requests.map((path) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`).join(''));
  return Object.assign(socket, { received });
}

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; !condition(); attempt++) {
    assert.ok(attempt < 200, 'condition not met within 2 s');
    await sleep(10);
  }
}

describe('createDrainableServer', () => {
  it('counts responses in flight and forgets them when they close, answered or aborted', async () => {
    const { server, drain, held, port } = await heldServer();
    try {
      assert.equal(drain.inFlight, 0);
      const first = send(port, '/hold');
      const second = send(port, '/hold');
      await until(() => held.length === 2);
      assert.equal(drain.inFlight, 2);
      held[0]?.end('done');
      await until(() => drain.inFlight === 1);
      second.destroy();
      await until(() => drain.inFlight === 0);
      first.destroy();
      assert.equal(drain.draining, false);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('says Connection: close on a held response, a later request; ends the connection of the one pipelined behind it; drains when all closed', async () => {
    const { drain, held, port } = await heldServer();
    // Two pipelined requests: the second waits behind the held first one.
    const { received } = send(port, '/hold', '/hold');
    await until(() => held.length === 2);
    const idle = send(port, '/before');
    const idleReceived = idle.received;
    await until(() => idleReceived.text.endsWith('answer /before'));
    assert.equal(drain.inFlight, 2);

    const outcome = drain.drain({ idleGraceMs: 200, deadlineMs: 5_000 });
    assert.equal(drain.draining, true);
    // A request on a keep-alive connection opened before the drain is still answered, with close.
    idle.write('GET /after HTTP/1.1\r\nHost: x\r\n\r\n');
    await sleep(50);
    held[0]?.end('one');
    held[1]?.end('two');
    const text = await received.closed;
    const idleText = await idleReceived.closed;
    // `abandoned` means something only when the deadline cut the drain short (the last socket may close
    // a tick before its response does).
    assert.equal((await outcome).drained, true);

    // The held response says close, so node ends the connection after it: the request pipelined behind
    // it gets no answer on this connection, and the client retries it elsewhere.
    const heads = text.split('HTTP/1.1 ').slice(1);
    assert.equal(heads.length, 1, text);
    assert.match(heads[0] ?? '', /^200 OK\r\nConnection: close\r\n[^]*\r\n\r\none$/);
    const idleHeads = idleText.split('HTTP/1.1 ').slice(1);
    assert.equal(idleHeads.length, 2, idleText);
    assert.match(idleHeads[0] ?? '', /Connection: keep-alive\r\n[^]*answer \/before$/);
    assert.match(idleHeads[1] ?? '', /Connection: close\r\n[^]*answer \/after$/);
  });

  it('hands every event of a response to its listeners with all its arguments', async () => {
    const { server } = createDrainableServer({}, (_request, response) => {
      const seen: unknown[][] = [];
      response.on('custom', (...args: unknown[]) => seen.push(args));
      response.emit('custom');
      response.emit('custom', 1);
      response.emit('custom', 1, 2, 3);
      response.end(JSON.stringify(seen));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/`);
      assert.deepEqual(await response.json(), [[], [1], [1, 2, 3]]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('cuts off what is still in flight at the deadline and counts it', async () => {
    const { drain, held, port } = await heldServer();
    const { received } = send(port, '/hold');
    await until(() => held.length === 1);
    assert.deepEqual(await drain.drain({ idleGraceMs: 20, deadlineMs: 100 }), { drained: false, abandoned: 1 });
    assert.equal(await received.closed, '');
    await until(() => drain.inFlight === 0);
    // Later calls return the same outcome.
    assert.deepEqual(await drain.drain({ idleGraceMs: 20, deadlineMs: 100 }), { drained: false, abandoned: 1 });
  });
});
