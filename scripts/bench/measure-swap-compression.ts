/**
 * What compressing the shared-cacheable bodies ahead of use costs at start-up and adds to a swap:
 * `node --import tsx scripts/bench/measure-swap-compression.ts <build out dir> [swaps]`. Starts the real
 * gateway in this process over `<out>/current.sqlite`, then swaps it `swaps` times (default 5) to a copy of
 * the served file (a new file of the same revision, so every body read from it is a new object and is
 * compressed again; the OpenAPI document and /docs are the app's and are taken over). Reads each
 * `bodies compressed ahead of use` log line (at start, one for the app's own documents, made while the file
 * is hashed, and one once it is verified; wall time from the first compression to the last, the
 * process's CPU time meanwhile, forms made and taken over, bytes held) and times the whole swap. Prints
 * Markdown for BENCHMARKS.md.
 */
import { copyFileSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pointCurrentAt } from '../../build/snapshot/publish-snapshot.ts';
import { checksumFileOf } from '../../build/snapshot/snapshot-checksum.ts';
import { segmentsFileOf } from '../../build/snapshot/snapshot-segments.ts';
import { parseGatewayConfig } from '../../gateway/config/parse-gateway-config.ts';
import { openKeyStore } from '../../gateway/keys/sqlite-key-store.ts';
import { createGatewayLogger } from '../../gateway/observability/gateway-logger.ts';
import { startGateway } from '../../gateway/start-gateway.ts';

interface Prepared {
  snapshotIndependentOnly: boolean;
  compressed: number;
  reused: number;
  skipped: number;
  identityBytes: number;
  heldBytes: number;
  ms: number;
  cpuMs: number;
}

const out = process.argv[2];
if (out === undefined) throw new Error('usage: measure-swap-compression.ts <build out dir> [swaps]');
const swaps = Number(process.argv[3] ?? 5);
const dataset = join(out, 'current.sqlite');
const served = readlinkSync(dataset);
const dir = mkdtempSync(join(tmpdir(), 'hra-swap-compression-'));
const copies: string[] = [];

const lines: Prepared[] = [];
let checkMs = Number.NaN;
const destination = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const text of chunk.toString('utf8').split('\n')) {
      if (text.includes('"msg":"snapshot checked"')) checkMs = (JSON.parse(text) as { checkMs: number }).checkMs;
      if (!text.includes('bodies compressed ahead of use')) continue;
      lines.push(JSON.parse(text) as Prepared);
    }
    done();
  },
});

const keysFile = join(dir, 'keys.sqlite');
const store = openKeyStore(keysFile, { now: () => new Date() });
await store.close();
const config = parseGatewayConfig({ dataset, keys: keysFile, port: '0', host: '127.0.0.1' }, {});
const gateway = await startGateway(config, createGatewayLogger({ level: 'info', destination }));
const swapMs: number[] = [];
try {
  for (let index = 0; index < swaps; index++) {
    const name = `swap-copy-${index}.sqlite`;
    const file = join(out, name);
    copyFileSync(join(out, served), file);
    copyFileSync(checksumFileOf(join(out, served)), checksumFileOf(file));
    copyFileSync(segmentsFileOf(join(out, served)), segmentsFileOf(file));
    copies.push(file);
    pointCurrentAt(out, name);
    const started = performance.now();
    const outcome = await gateway.reload('bench');
    if (outcome.status !== 'swapped') throw new Error(`swap ${index}: ${outcome.status}`);
    swapMs.push(performance.now() - started);
  }
} finally {
  await gateway.close();
  pointCurrentAt(out, served);
  for (const file of copies) for (const path of [file, checksumFileOf(file), segmentsFileOf(file)]) rmSync(path, { force: true });
  rmSync(dir, { recursive: true, force: true });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? Number.NaN;
const range = (values: number[]) => `${Math.round(median(values))} (${Math.round(Math.min(...values))}-${Math.round(Math.max(...values))})`;
const [whileHashing, atStart, ...atSwaps] = lines;
if (whileHashing?.snapshotIndependentOnly !== true || atStart === undefined || atSwaps.length !== swaps) throw new Error(`expected ${swaps + 2} log lines, the first of the app's own documents, read ${lines.length}`);
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
console.log('| when | forms made / taken over / left out | bodies as they are | held | wall ms | CPU ms | whole swap ms |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
console.log(`| start, while the file is hashed (the app's own documents) | ${whileHashing.compressed} / ${whileHashing.reused} / ${whileHashing.skipped} | ${kib(whileHashing.identityBytes)} | ${kib(whileHashing.heldBytes)} | ${Math.round(whileHashing.ms)} | ${Math.round(whileHashing.cpuMs)} | |`);
console.log(`| start, once it is verified | ${atStart.compressed} / ${atStart.reused} / ${atStart.skipped} | ${kib(atStart.identityBytes)} | ${kib(atStart.heldBytes)} | ${Math.round(atStart.ms)} | ${Math.round(atStart.cpuMs)} | |`);
const first = atSwaps[0] as Prepared;
console.log(`| swap, median (min-max) of ${swaps} | ${first.compressed} / ${first.reused} / ${first.skipped} | ${kib(first.identityBytes)} | ${kib(first.heldBytes)} | ${range(atSwaps.map((line) => line.ms))} | ${range(atSwaps.map((line) => line.cpuMs))} | ${range(swapMs)} |`);
console.log('', `Start-up's check of the file (its hash, during which the app's own documents are compressed) took ${checkMs} ms.`);
