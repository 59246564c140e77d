/** The manifest's `publicBaseUrl` must be one the build can publish, so `validate` refuses what `build` would. */
import { publicBaseUrlProblem } from '../contract/envelope-links.ts';
import type { CorpusProblem } from './corpus-problem.ts';
import type { Manifest } from './corpus-types.ts';

/** Reports a `publicBaseUrl` the build cannot use or must not publish (see `publicBaseUrlProblem`). */
export function checkPublicBaseUrl(
  manifest: Pick<Manifest, 'publicBaseUrl'>,
  where: { file: string; lineOf: (instancePath: string) => number },
  problems: CorpusProblem[],
): void {
  if (manifest.publicBaseUrl === undefined) return;
  const message = publicBaseUrlProblem(manifest.publicBaseUrl);
  if (message === undefined) return;
  problems.push({ file: where.file, line: where.lineOf('/publicBaseUrl'), path: '$.publicBaseUrl', message });
}
