/**
 * Loads pdf.js's legacy build (the one it supports on Node 20) without the two of its core-js polyfills that
 * slow the whole process: the legacy bundles replace `Array.prototype.push` and `JSON.parse` with JavaScript
 * versions (V8 fails core-js's checks for the length of a 2^32-element array and for JSON.parse's `source`
 * context, neither of which pdf.js or this project uses), and on real PDFs about 8% of a child's CPU went to
 * that `push` alone (BENCHMARKS.md, PDF reading). The natives are put back once pdf.js has loaded; the
 * polyfills that add what Node 20 lacks (Promise.withResolvers, the Set methods, ...) stay, as pdf.js needs them.
 */

/** The built-ins put back: each replaced by the legacy bundles although Node 20's own does what pdf.js needs. */
const KEPT = [
  ['Array.prototype', Array.prototype, 'push'],
  ['JSON', JSON, 'parse'],
] as const;

/** Loads `pdfjs-dist/legacy/build/pdf.mjs` (and its worker, which the fake worker would load anyway), keeping KEPT's natives. */
export async function loadPdfjs(): Promise<typeof import('pdfjs-dist/legacy/build/pdf.mjs')> {
  const natives = KEPT.map(([, owner, name]) => Object.getOwnPropertyDescriptor(owner, name)!);
  try {
    await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    return await import('pdfjs-dist/legacy/build/pdf.mjs');
  } finally {
    KEPT.forEach(([, owner, name], index) => Object.defineProperty(owner, name, natives[index]!));
  }
}

/**
 * The same, as the source of a module for `node --import data:text/javascript,...`: a child that preloads
 * pdf.js before its TypeScript loader (create-page-text-extractor.ts) must keep the natives from the start.
 */
export function pdfjsPreloadModule(workerUrl: string, pdfUrl: string): string {
  const natives = KEPT.map(([owner, , name]) => `[${owner}, ${JSON.stringify(name)}]`).join(', ');
  return [
    `const kept = [${natives}].map(([owner, name]) => [owner, name, Object.getOwnPropertyDescriptor(owner, name)]);`,
    `try { await import(${JSON.stringify(workerUrl)}); await import(${JSON.stringify(pdfUrl)}); }`,
    'finally { for (const [owner, name, native] of kept) Object.defineProperty(owner, name, native); }',
  ].join('\n');
}
