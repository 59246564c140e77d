/** The manifest must name the HTTP contract version this code serves, so a corpus is never built under another. */
import type { CorpusProblem } from './corpus-problem.ts';
import type { Manifest } from './corpus-types.ts';

/** Reports a manifest whose `contractVersion` is not `served` (API_VERSION), naming both versions. */
export function checkContractVersion(
  manifest: Pick<Manifest, 'contractVersion'>,
  served: string,
  where: { file: string; lineOf: (instancePath: string) => number },
  problems: CorpusProblem[],
): void {
  if (manifest.contractVersion === served) return;
  problems.push({
    file: where.file,
    line: where.lineOf('/contractVersion'),
    path: '$.contractVersion',
    message: `is ${JSON.stringify(manifest.contractVersion)}, but this code serves contract version ${JSON.stringify(served)}`,
  });
}
