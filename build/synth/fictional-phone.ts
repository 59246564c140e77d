/**
 * Fictional phone numbers for synthetic programs: the 555-0100 to 555-0199 block is reserved for
 * fiction, so a synthetic row never points a caller at a real agency's line.
 */
import type { SeededRandom } from './seeded-random.ts';

/** A fictional number written in the same style as `like` (a template row's phone). */
export function fictionalPhone(like: string, random: SeededRandom): string {
  const area = random.between(201, 989);
  const line = `01${String(random.int(100)).padStart(2, '0')}`;
  if (/^\(\d{3}\)\s?\d{3}-\d{4}/.test(like)) return `(${area}) 555-${line}`;
  if (/^\d{3}\.\d{3}\.\d{4}/.test(like)) return `${area}.555.${line}`;
  if (/^1-\d{3}-\d{3}-\d{4}/.test(like)) return `1-${area}-555-${line}`;
  return `${area}-555-${line}`;
}
