/** The User-Agent of the link checker: who is crawling, for which dataset, and where to reach them. */
import type { Manifest } from '../corpus/corpus-types.ts';

/**
 * `hra-link-check (+<contact>; dataset <name>)`, in the shape well-behaved crawlers use so a
 * site owner can find who to write to. undefined when the manifest names no contact: the caller must
 * then refuse to run or use an explicit `--user-agent`.
 */
export function linkUserAgent(manifest: Manifest): string | undefined {
  if (manifest.contact === undefined) return undefined;
  // Header values cannot carry line breaks or other control characters; the dataset name is free text.
  const dataset = manifest.dataset.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  return `hra-link-check (+${manifest.contact}; dataset ${dataset})`;
}
