/**
 * acquireArchiveLock: writers share the archive's lock, a prune holds it alone; a refusal names the process
 * that holds it, after a bounded wait; the kernel drops it when its holder is killed, however.
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { after, describe, it } from 'node:test';
import { acquireArchiveLock, ArchiveLockedError, lockHolders, type ArchiveLockMode } from '../../../build/archive/archive-lock.ts';
import { openArchiveWriter } from '../../../build/archive/open-archive-writer.ts';
import { ROOT, TSX_NODE_ARGS } from '../../support/run-hra.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const work = makeTempDir('hra-archive-lock-');
let made = 0;
const children: ChildProcess[] = [];
after(() => {
  for (const child of children) child.kill('SIGKILL');
});

function archive(): string {
  const dir = join(work, `archive-${++made}`);
  mkdirSync(dir);
  return dir;
}

/** Starts a process that holds the lock, resolving once it does. */
async function holder(dir: string, mode: ArchiveLockMode, purpose: string, holdMs?: number): Promise<ChildProcess> {
  const args = [dir, mode, purpose, ...(holdMs === undefined ? [] : [String(holdMs)])];
  const child = spawn(process.execPath, [...TSX_NODE_ARGS, join(ROOT, 'test/support/hold-archive-lock.ts'), ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  let out = '';
  child.stdout!.setEncoding('utf8');
  for await (const chunk of child.stdout!) {
    out += chunk;
    if (out.includes('held\n')) return child;
  }
  throw new Error(`lock holder ended without holding: ${out}`);
}

function refusal(dir: string, mode: ArchiveLockMode, waitMs = 0): ArchiveLockedError {
  try {
    acquireArchiveLock(dir, { mode, purpose: 'test', waitMs })();
  } catch (error) {
    if (error instanceof ArchiveLockedError) return error;
    throw error;
  }
  assert.fail(`a ${mode} lock was granted`);
}

describe('acquireArchiveLock', () => {
  it('shares among writers, refuses a prune beside one, naming it', async () => {
    const dir = archive();
    const writer = await holder(dir, 'shared', 'links check (archive writer)');
    acquireArchiveLock(dir, { mode: 'shared', purpose: 'second writer', waitMs: 0 })();
    const refused = refusal(dir, 'exclusive');
    assert.deepEqual(refused.holders, [{ pid: writer.pid, purpose: 'links check (archive writer)' }]);
    assert.match(refused.message, new RegExp(`^--archive .*: links check \\(archive writer\\) \\(process ${writer.pid}\\) holds the archive's lock \\(archive\\.lock\\), still after 0 ms; no test was done`));
    writer.stdin!.end();
    await once(writer, 'exit');
    acquireArchiveLock(dir, { mode: 'exclusive', purpose: 'prune', waitMs: 0 })();
  });

  it('a prune holds it alone: a second prune and a writer are refused, after the wait', async () => {
    const dir = archive();
    const prune = await holder(dir, 'exclusive', 'archive prune');
    const started = Date.now();
    assert.deepEqual(refusal(dir, 'exclusive', 300).holders, [{ pid: prune.pid, purpose: 'archive prune' }]);
    assert.ok(Date.now() - started >= 250, 'waited before refusing');
    assert.deepEqual(refusal(dir, 'shared').holders, [{ pid: prune.pid, purpose: 'archive prune' }]);
  });

  it('an archive writer (a links check) takes it shared: refused while a prune holds it, naming the prune', async () => {
    const dir = archive();
    const prune = await holder(dir, 'exclusive', 'archive prune');
    await assert.rejects(openArchiveWriter({ archiveDir: dir, lockWaitMs: 0 }), (error: unknown) => {
      assert.ok(error instanceof ArchiveLockedError);
      assert.deepEqual(error.holders, [{ pid: prune.pid, purpose: 'archive prune' }]);
      return true;
    });
    assert.ok(!existsSync(join(dir, 'index.sqlite')), 'the writer touched nothing before the lock');
  });

  it('waits for a holder that finishes within the wait', async () => {
    const dir = archive();
    // The child lets go on its own: SQLite's busy handler waits on this thread, so this process could not tell it to.
    await holder(dir, 'exclusive', 'archive prune', 300);
    acquireArchiveLock(dir, { mode: 'exclusive', purpose: 'second prune', waitMs: 10_000 })();
  });

  it('is dropped when its holder is killed with SIGKILL, and its stale note names no one', async () => {
    const dir = archive();
    const prune = await holder(dir, 'exclusive', 'archive prune');
    prune.kill('SIGKILL');
    await once(prune, 'exit');
    assert.ok(readdirSync(dir).some((name) => name.includes(`holder-${prune.pid}-`)), 'the killed holder left its note');
    assert.deepEqual(lockHolders(dir), []);
    const release = acquireArchiveLock(dir, { mode: 'shared', purpose: 'writer', waitMs: 0 });
    release();
  });
});
