/**
 * Names synthetic programs so that every distinct program has its own name: dataset health counts
 * distinct stored names and names stored in one city, so a clash would miscount the layers.
 */
import { normalizeName } from '../derive/tally-health.ts';

// Agency words that read naturally before a program name and match no template policy term.
const AGENCIES = [
  'Housing Department', 'Community Development', 'Neighborhood Services', 'Housing Authority', 'Redevelopment Agency',
  'Planning Department', 'Aging Services', 'Office of Housing', 'Human Services', 'Community Action',
];

/** Hands out program names, never the same (normalized) name twice. */
export class SynthProgramNamer {
  #taken = new Set<string>();

  /** Names in use so far. */
  get size(): number {
    return this.#taken.size;
  }

  /**
   * A name for a program of `place` modelled on `base` (the template's name with places swapped): the
   * base itself when it already names the place, else prefixed with the place; on a clash, an agency
   * is added, and as a last resort a number.
   */
  name(base: string, place: string, pickAgency: () => number): string {
    const plain = base.toLowerCase().includes(place.toLowerCase()) ? base : `${place} ${base}`;
    if (this.#claim(plain)) return plain;
    const offset = pickAgency();
    for (let i = 0; i < AGENCIES.length; i += 1) {
      const candidate = `${place} ${AGENCIES[(offset + i) % AGENCIES.length]} ${base.startsWith(place) ? base.slice(place.length).trim() : base}`;
      if (this.#claim(candidate)) return candidate;
    }
    for (let n = 2; ; n += 1) {
      const candidate = `${plain} ${n}`;
      if (this.#claim(candidate)) return candidate;
    }
  }

  /** The number of agency words name() varies over (the range pickAgency draws from). */
  static get agencyCount(): number {
    return AGENCIES.length;
  }

  #claim(name: string): boolean {
    const key = normalizeName(name);
    if (this.#taken.has(key)) return false;
    this.#taken.add(key);
    return true;
  }
}
