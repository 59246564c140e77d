/**
 * Preloaded with `node --import` into a process under test: each fsyncSync and fdatasyncSync first waits
 * HRA_TEST_SLOW_FSYNC_MS ms, as on a slow disk, so a prune's flushed steps stay open long enough for a second
 * process to run into them. syncBuiltinESMExports carries the wrapped functions to modules importing them by name.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';

// The CommonJS face of node:fs is the one object whose functions can be replaced.
const fs = createRequire(import.meta.url)('node:fs') as Record<'fsyncSync' | 'fdatasyncSync', (fd: number) => void>;
const delayMs = Number(process.env.HRA_TEST_SLOW_FSYNC_MS ?? '50');
const pause = new Int32Array(new SharedArrayBuffer(4));

for (const name of ['fsyncSync', 'fdatasyncSync'] as const) {
  const original = fs[name];
  fs[name] = (fd: number) => {
    Atomics.wait(pause, 0, 0, delayMs);
    original(fd);
  };
}
syncBuiltinESMExports();
