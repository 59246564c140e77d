/**
 * The ceiling: bare node:http writing bytes fetched from the gateway, with no per-request work but a Map
 * lookup. Run as its own process: `node --import tsx scripts/bench/ceiling-server.ts <routes.json>`,
 * where the file maps each URL path (with query) to the base64 body; a URL with a query that is not in
 * the map gets the `missBody` (the varying cache-miss route). Prints `listening on http://HOST:PORT`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The file the bench writes for the ceiling server. */
export interface CeilingRoutes {
  bodies: Record<string, string>;
  /** Base64 body for any unknown URL that carries a query string. */
  missBody: string;
}

const file = process.argv[2];
if (file !== undefined) {
  const routes = JSON.parse(readFileSync(file, 'utf8')) as CeilingRoutes;
  const headersFor = (body: Buffer) => ({ 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(body.length) });
  const answers = new Map<string, { body: Buffer; headers: Record<string, string> }>();
  for (const [path, base64] of Object.entries(routes.bodies)) {
    const body = Buffer.from(base64, 'base64');
    answers.set(path, { body, headers: headersFor(body) });
  }
  const missBody = Buffer.from(routes.missBody, 'base64');
  const miss = { body: missBody, headers: headersFor(missBody) };
  const notFound = { body: Buffer.from('{"code":"NOT_FOUND"}'), headers: headersFor(Buffer.from('{"code":"NOT_FOUND"}')) };
  const server = createServer((request, response) => {
    const url = request.url ?? '/';
    const answer = answers.get(url) ?? (url.includes('?') ? miss : notFound);
    response.writeHead(answer === notFound ? 404 : 200, answer.headers);
    response.end(answer.body);
  });
  server.keepAliveTimeout = 5_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address() as AddressInfo;
    process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
  });
  process.on('SIGTERM', () => process.exit(0));
}
