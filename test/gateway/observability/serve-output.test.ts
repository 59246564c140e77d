/**
 * `hra serve` end to end: stdout carries the `listening on` line and nothing else; stderr carries JSON
 * log lines (start-up, metrics URL, one per request), never the key.
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openKeyStore } from '../../../gateway/keys/sqlite-key-store.ts';
import { buildTestSnapshot } from '../../support/start-test-gateway.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

describe('hra serve output', () => {
  let child: ChildProcess;
  let stdout = '';
  let stderr = '';
  let url: string;
  let key: string;
  let keyId: string;
  let dir: string;
  before(async () => {
    dir = makeTempDir('hra-serve-output-');
    const keysFile = join(dir, 'keys.sqlite');
    const store = openKeyStore(keysFile, { now: () => new Date() });
    ({ key, id: keyId } = await store.createKey({ tier: 'commercial' }));
    await store.close();
    child = spawn(process.execPath, ['--import', 'tsx', 'scripts/hra.ts', 'serve', '--dataset', buildTestSnapshot(), '--keys', keysFile, '--port', '0', '--metrics-port', '0'], {
      env: { ...process.env, HRA_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line within 60 s; stderr: ${stderr}`)), 60_000);
      const check = () => {
        const match = /^listening on (http:\/\/\S+)\n/.exec(stdout);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      child.stdout?.on('data', check);
      child.once('exit', (code) => reject(new Error(`hra serve exited ${code}: ${stderr}`)));
    });
  });
  after(async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  const logLines = () => stderr.split('\n').filter((line) => line !== '').map((line) => {
    try {
      return JSON.parse(line) as Record<string, unknown>;
    } catch {
      return assert.fail(`a stderr line that is not JSON: ${line}`);
    }
  });

  it('logs every request as one JSON line on stderr, with the key id and never the key', async () => {
    const response = await fetch(`${url}/api/programs/alpha`, { headers: { 'X-Api-Key': key, 'X-Request-ID': 'serve-output-01' } });
    assert.equal(response.status, 200);
    await response.arrayBuffer();
    await (await fetch(`${url}/nowhere`)).arrayBuffer();
    // Written synchronously before the response ends; allow the pipe a moment to deliver it.
    for (let attempt = 0; attempt < 50 && !stderr.includes('serve-output-01'); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    const lines = logLines();
    const line = lines.find((candidate) => candidate.requestId === 'serve-output-01');
    assert.ok(line, `a request line; stderr: ${stderr}`);
    assert.equal(line.msg, 'request');
    assert.equal(line.route, '/api/programs/:city');
    assert.equal(line.keyId, keyId);
    assert.equal(line.tier, 'commercial');
    assert.equal(stderr.includes(key), false, 'the key never reaches the log');
  });

  it('announces the metrics URL on stderr, and serves the metrics there', async () => {
    const announced = logLines().find((line) => typeof line.metricsUrl === 'string');
    assert.ok(announced, `a metrics line; stderr: ${stderr}`);
    const response = await fetch(String(announced.metricsUrl));
    assert.equal(response.status, 200);
    assert.match(await response.text(), /hra_http_requests_total\{route="\/api\/programs\/:city",method="GET",status_class="2xx"\} 1/);
  });

  it('writes nothing to stdout but the listening line', () => {
    assert.equal(stdout, `listening on ${url}\n`);
  });
});
