import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { spawnServer, type BenchProcess } from '../../../scripts/bench/bench-process.ts';
import type { CeilingRoutes } from '../../../scripts/bench/ceiling-server.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const PATH = '/api/programs/x';
const base64 = (text: string) => Buffer.from(text).toString('base64');
const head = (coding: string) => ({ byPath: { [PATH]: ['Content-Encoding', coding, 'Content-Length', '7'] }, miss: [], keepAliveTimeoutMs: 5000, maxRequestsPerSocket: 0 });

function ask(origin: string, acceptEncoding?: string): Promise<{ body: string; encoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    get(`${origin}${PATH}`, { headers: acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ body: Buffer.concat(chunks).toString(), encoding: response.headers['content-encoding'] }));
    }).on('error', reject);
  });
}

describe('the ceiling server', () => {
  let ceiling: BenchProcess;
  before(async () => {
    const dir = makeTempDir('hra-ceiling-');
    const routes: CeilingRoutes = {
      bodies: { [PATH]: base64('plain!!') },
      missBody: '',
      compressed: {
        br: { bodies: { [PATH]: base64('br-form') }, missBody: '', sameHeaders: head('br') },
        gzip: { bodies: { [PATH]: base64('gz-form') }, missBody: '', sameHeaders: head('gzip') },
      },
    };
    writeFileSync(join(dir, 'routes.json'), JSON.stringify(routes));
    ceiling = await spawnServer(process.execPath, ['--import', 'tsx', 'scripts/bench/ceiling-server.ts', join(dir, 'routes.json')], process.cwd(), join(dir, 'ceiling.log'));
  });
  after(() => ceiling.stop());

  it('answers each coding asked for with the bytes and head the gateway sent in it, and a plain request as it is', async () => {
    assert.deepEqual(await ask(ceiling.url, 'br'), { body: 'br-form', encoding: 'br' });
    assert.deepEqual(await ask(ceiling.url, 'gzip'), { body: 'gz-form', encoding: 'gzip' });
    assert.deepEqual(await ask(ceiling.url), { body: 'plain!!', encoding: undefined });
  });
});
