/** A gateway response head as the same-headers ceiling (ceiling-server.ts) replays it. */

/**
 * Headers node:http adds by itself when the handler has not set them. The gateway does not set them, so
 * the ceiling leaves them to its own node:http too: set by hand they would change its keep-alive logic.
 */
const ADDED_BY_NODE = new Set(['date', 'connection', 'keep-alive']);

/** A captured head (`IncomingMessage.rawHeaders`) as a ceiling replays it: without what node:http adds. */
export function replayableHead(rawHeaders: readonly string[]): { headers: string[]; keepAliveTimeoutMs: number; maxRequestsPerSocket: number } {
  const headers: string[] = [];
  let keepAlive = '';
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    const value = rawHeaders[i + 1] as string;
    if (name.toLowerCase() === 'keep-alive') keepAlive = value;
    if (!ADDED_BY_NODE.has(name.toLowerCase())) headers.push(name, value);
  }
  const timeout = Number(/timeout=(\d+)/.exec(keepAlive)?.[1] ?? 5);
  const max = Number(/max=(\d+)/.exec(keepAlive)?.[1] ?? 0);
  return { headers, keepAliveTimeoutMs: timeout * 1000, maxRequestsPerSocket: max };
}
