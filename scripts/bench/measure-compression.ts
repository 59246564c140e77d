/**
 * What compressing a snapshot's bodies costs, per level: `node --import tsx scripts/bench/measure-compression.ts
 * <snapshot.sqlite>`. Times brotli 4, 5, 6 and 11 and gzip 6 and 9 on the largest and the median city
 * collection, `/api/sample`, `/openapi.json` and `/docs`, then compresses every collection of the snapshot
 * at the levels the gateway uses (gateway/encoding/encoded-bodies.ts) and sums bytes and CPU: what holding
 * every compressed form would cost. Prints Markdown for BENCHMARKS.md. Synchronous zlib, one core, on
 * purpose: CPU per body is the figure, whatever thread the gateway runs it on.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { COMPRESSION_LEVELS } from '../../gateway/encoding/compress-body.ts';
import { readRedocBundle, renderDocsPage } from '../../gateway/docs/docs-page.ts';
import { buildOpenApiDocument } from '../../gateway/openapi/build-openapi-document.ts';
import { ROUTE_TABLE } from '../../gateway/routes/route-table.ts';

const brotli = (quality: number) => (body: Buffer) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
const gzip = (level: number) => (body: Buffer) => gzipSync(body, { level });
const LEVELS: ReadonlyArray<[string, (body: Buffer) => Buffer]> = [['br 4', brotli(4)], ['br 5', brotli(5)], ['br 6', brotli(6)], ['br 11', brotli(11)], ['gzip 6', gzip(6)], ['gzip 9', gzip(9)]];

function timed(run: () => Buffer): { bytes: number; ms: number } {
  const started = process.cpuUsage();
  const bytes = run().length;
  const used = process.cpuUsage(started);
  return { bytes, ms: (used.user + used.system) / 1000 };
}

const file = process.argv[2];
if (file === undefined) throw new Error('usage: measure-compression.ts <snapshot.sqlite>');
const db = new Database(file, { readonly: true, fileMustExist: true });
const collections = (db.prepare("SELECT name, body FROM documents WHERE name LIKE 'collection:%' ORDER BY length(body)").all() as { name: string; body: Buffer }[]);
const sample = (db.prepare("SELECT body FROM documents WHERE name = 'sample'").get() as { body: Buffer } | undefined)?.body;
db.close();
const openApi = buildOpenApiDocument(ROUTE_TABLE);
const bodies: Array<[string, Buffer]> = [
  [`largest collection (${collections.at(-1)?.name})`, collections.at(-1)?.body ?? Buffer.alloc(0)],
  [`median collection (${collections[collections.length >> 1]?.name})`, collections[collections.length >> 1]?.body ?? Buffer.alloc(0)],
  ...(sample === undefined ? [] : [['/api/sample', sample] as [string, Buffer]]),
  ['/openapi.json', Buffer.from(JSON.stringify(openApi))],
  ['/docs', Buffer.from(renderDocsPage(openApi, readRedocBundle(), 'reference').body)],
];
const lines = [`| body | bytes | ${LEVELS.map(([name]) => name).join(' | ')} |`, `|---|---:|${LEVELS.map(() => '---:').join('|')}|`];
for (const [name, body] of bodies) {
  const cells = LEVELS.map(([, run]) => {
    const { bytes, ms } = timed(() => run(body));
    return `${bytes.toLocaleString('en-US')} B, ${ms.toFixed(1)} ms`;
  });
  lines.push(`| ${name} | ${body.length.toLocaleString('en-US')} | ${cells.join(' | ')} |`);
}
let identity = 0;
const total = { br: { bytes: 0, ms: 0 }, gzip: { bytes: 0, ms: 0 } };
for (const { body } of collections) {
  identity += body.length;
  if (body.length < 1024) continue;
  const br = timed(() => brotli(COMPRESSION_LEVELS.brotliQuality)(body));
  const gz = timed(() => gzip(COMPRESSION_LEVELS.gzipLevel)(body));
  total.br.bytes += br.bytes;
  total.br.ms += br.ms;
  total.gzip.bytes += gz.bytes;
  total.gzip.ms += gz.ms;
}
lines.push('', `Every collection of the snapshot (${collections.length.toLocaleString('en-US')}, ${(identity / 1e6).toFixed(1)} MB as they are): br ${COMPRESSION_LEVELS.brotliQuality} ${(total.br.bytes / 1e6).toFixed(1)} MB in ${(total.br.ms / 1000).toFixed(1)} s of CPU; gzip ${COMPRESSION_LEVELS.gzipLevel} ${(total.gzip.bytes / 1e6).toFixed(1)} MB in ${(total.gzip.ms / 1000).toFixed(1)} s of CPU.`);
process.stdout.write(`${lines.join('\n')}\n`);
