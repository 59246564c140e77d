/** Reads a V8 `.cpuprofile` (from `node --cpu-prof`) into its top functions by self time. */

/** The parts of a V8 CPU profile node that self time needs. */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

/** The JSON document `node --cpu-prof` writes. */
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** One function's share of the sampled time. */
export interface HotFunction {
  /** `name (file:line:column)`, with the path shortened to the project or package it belongs to. */
  location: string;
  selfMs: number;
  /** Self time as a share of all samples, 0..1. */
  share: number;
}

/**
 * Sums self time per function (name + file + line), folding every node of the same function together,
 * and returns the `top` heaviest. `(idle)` and `(program)` are kept: they say how busy the process was.
 */
export function summarizeCpuProfile(profile: CpuProfile, top = 15): HotFunction[] {
  const locationOf = new Map<number, string>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const file = shortenUrl(url);
    const name = functionName || '(anonymous)';
    // tsx-compiled sources report line 1 for everything; the column still tells functions apart.
    locationOf.set(node.id, file === '' ? name : `${name} (${file}:${lineNumber + 1}:${columnNumber + 1})`);
  }
  const selfMicros = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((nodeId, index) => {
    const delta = Math.max(0, profile.timeDeltas[index] ?? 0);
    const location = locationOf.get(nodeId) ?? '(unknown)';
    selfMicros.set(location, (selfMicros.get(location) ?? 0) + delta);
    total += delta;
  });
  return [...selfMicros]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([location, micros]) => ({ location, selfMs: micros / 1000, share: total === 0 ? 0 : micros / total }));
}

/** `file:///…/node_modules/koa/lib/context.js` -> `koa/lib/context.js`; project files relative to the root. */
export function shortenUrl(url: string): string {
  const path = url.replace(/^file:\/\//, '');
  const inModules = path.lastIndexOf('/node_modules/');
  if (inModules >= 0) return path.slice(inModules + '/node_modules/'.length);
  const inProject = path.search(/\/(gateway|build|scripts)\//);
  return inProject >= 0 ? path.slice(inProject + 1) : path;
}
