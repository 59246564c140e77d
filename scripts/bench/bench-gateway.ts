/**
 * Starts `hra serve` for a bench (the real CLI, spawned) and measures its start-up and resting memory. It runs
 * the compiled JavaScript (`npm run compile`, run by the bench first), as production does: under tsx the
 * loader thread alone costs about 0.4 s of start-up and 55 MB of RSS.
 */
import { get } from 'node:http';
import { join } from 'node:path';
import { residentBytes, spawnServer, type BenchProcess } from './bench-process.ts';

/** The V8 flags of the documented production command (docs/operators.md): a smaller young generation and a bounded old space. */
export const PRODUCTION_NODE_FLAGS = ['--max-semi-space-size=8', '--max-old-space-size=256'] as const;

/** The CLI as `npm run compile` emits it. */
export const COMPILED_HRA = 'dist/js/scripts/hra.js';

/** The bench's bare node:http ceiling (ceiling-server.ts) as `npm run compile` emits it, started like the gateway. */
export const COMPILED_CEILING = 'dist/js/scripts/bench/ceiling-server.js';

/** What the gateway serves and how. */
export interface BenchGatewayConfig {
  root: string;
  dataset: string;
  keys: string;
  limits: string;
  redisUrl?: string;
  /** Where the gateway's stderr (one log line per request) is written. */
  logFile: string;
  /** Directory for `node --cpu-prof` output; profiling is off when absent. */
  cpuProfileDir?: string;
}

/** A started gateway with its start-up figures. */
export interface BenchGateway {
  process: BenchProcess;
  /** Milliseconds from spawn to the first 200 on `probePath`. */
  firstResponseMs: number;
  restRssBytes: number | undefined;
}

/** Spawns the gateway, then polls `probePath` with the key until it answers 200. */
export async function startBenchGateway(config: BenchGatewayConfig, probePath: string, apiKey: string): Promise<BenchGateway> {
  // As the documented production command ("Running in production").
  const nodeArgs: string[] = [...PRODUCTION_NODE_FLAGS];
  if (config.cpuProfileDir !== undefined) nodeArgs.push('--cpu-prof', '--cpu-prof-dir', config.cpuProfileDir);
  const serveArgs = ['serve', '--dataset', config.dataset, '--keys', config.keys, '--port', '0', '--limits', config.limits];
  if (config.redisUrl !== undefined) serveArgs.push('--redis', config.redisUrl, '--cursor-secret', 'bench-cursor-secret');
  const started = await spawnServer(process.execPath, [...nodeArgs, join(config.root, COMPILED_HRA), ...serveArgs], config.root, config.logFile);
  const deadline = performance.now() + 30_000;
  for (;;) {
    const response = await fetch(`${started.url}${probePath}`, { headers: { 'X-Api-Key': apiKey } }).catch(() => undefined);
    await response?.arrayBuffer();
    if (response?.status === 200) break;
    if (performance.now() > deadline) {
      await started.stop();
      throw new Error(`gateway never answered 200 on ${probePath} (last status ${response?.status ?? 'none'})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const firstResponseMs = performance.now() - started.spawnedAt;
  return { process: started, firstResponseMs, restRssBytes: residentBytes(started.pid) };
}

/** GETs `path` once with node:http and returns the bytes and the head as sent; throws unless the answer is 200. */
export function fetchAnswer(origin: string, path: string, apiKey: string, headers: Readonly<Record<string, string>> = {}): Promise<{ body: Buffer; rawHeaders: string[] }> {
  // node:http, not fetch: only `rawHeaders` keeps the names' spelling and order as the gateway sent them,
  // and it leaves a compressed body as sent.
  return new Promise((resolve, reject) => {
    get(`${origin}${path}`, { headers: { 'X-Api-Key': apiKey, ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const body = Buffer.concat(chunks);
        if (response.statusCode !== 200) reject(new Error(`GET ${path} answered ${response.statusCode}: ${body.toString('utf8').slice(0, 200)}`));
        else resolve({ body, rawHeaders: response.rawHeaders });
      });
    }).on('error', reject);
  });
}
