/**
 * Keeps one of Node's tick objects alive for the life of the process, so that `process.nextTick` (several
 * calls per request: the socket's write callback, the request's end and destroy, the response's finish)
 * keeps building its tick object on the fast path.
 *
 * nextTick makes each tick object from an object literal with computed keys (the two async-id symbols),
 * and V8 records, per property of that literal, the one map it saw, held weakly. When no tick object is
 * alive (an idle gateway: every tick has run) a few major collections free that map chain; the next
 * nextTick finds its recorded map gone, V8 marks the site megamorphic for good, and from then on every
 * tick object defines its four properties through the runtime: 8-11% of a loaded gateway's CPU samples,
 * in some processes and not others, by when the collector ran (BENCHMARKS.md, issue 43). One tick object
 * held keeps the chain, and so the recorded maps, alive. Bare node meets the same: the bench's ceiling
 * holds one too, so neither side of a ratio carries it.
 *
 * test/gateway/operations/hold-tick-object-shape.test.ts shows the site turning megamorphic without it and
 * staying monomorphic with it; when a Node release stops doing the first, this module can go.
 */
import { createHook } from 'node:async_hooks';

// Process-wide by nature: there is one nextTick per process, so one object held serves every gateway in it.
let held: object | undefined;

const noop = () => undefined;

/**
 * Takes hold of a tick object, once per process; true when one is held. Call it before the process
 * idles (the gateway's start does): after the recorded maps are freed, holding a new one cannot undo it.
 */
export function holdTickObjectShape(): boolean {
  if (held !== undefined) return true;
  // An init hook sees the tick object itself; enabled for this one call only, so no request pays for it.
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject' && held === undefined) held = resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(noop);
  } finally {
    hook.disable();
  }
  return held !== undefined;
}
