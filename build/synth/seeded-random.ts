/**
 * A small seeded pseudo-random generator (sfc32) for the synthetic corpus: the same seed always yields
 * the same sequence on every platform, which Math.random cannot promise.
 */

/** Draws from one seeded stream; every method advances it. */
export interface SeededRandom {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n); n must be a positive integer. */
  int(n: number): number;
  /** An integer in [min, max], both inclusive. */
  between(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  /** One member of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** A standard normal deviate (Box-Muller). */
  normal(): number;
  /** Shuffles the list in place (Fisher-Yates) and returns it. */
  shuffle<T>(items: T[]): T[];
  /** A new independent stream derived from this one and a label, so adding draws in one part of the
   * generator does not shift the draws of another. */
  fork(label: string): SeededRandom;
}

/** Creates a stream from an integer or string seed. */
export function createSeededRandom(seed: number | string): SeededRandom {
  const [a, b, c, d] = seedWords(String(seed));
  return sfc32(a, b, c, d);
}

function sfc32(a0: number, b0: number, c0: number, d0: number): SeededRandom {
  let a = a0 | 0, b = b0 | 0, c = c0 | 0, d = d0 | 0;
  const nextUint = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  // The first outputs of sfc32 still echo the seed words; discard them.
  for (let i = 0; i < 15; i += 1) nextUint();
  const random: SeededRandom = {
    next: () => nextUint() / 4294967296,
    int: (n) => Math.floor(random.next() * n),
    between: (min, max) => min + random.int(max - min + 1),
    chance: (p) => random.next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error('cannot pick from an empty list');
      return items[random.int(items.length)] as (typeof items)[number];
    },
    normal: () => {
      const u = 1 - random.next(); // (0, 1], so the logarithm is finite
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.next());
    },
    shuffle: (items) => {
      for (let i = items.length - 1; i > 0; i -= 1) {
        const j = random.int(i + 1);
        [items[i], items[j]] = [items[j] as (typeof items)[number], items[i] as (typeof items)[number]];
      }
      return items;
    },
    fork: (label) => createSeededRandom(`${nextUint()}:${label}`),
  };
  return random;
}

// cyrb128: spreads any string over four 32-bit words, so nearby seeds (1, 2) start far apart.
function seedWords(text: string): [number, number, number, number] {
  let h1 = 1779033703, h2 = 3144134277, h3 = 1013904242, h4 = 2773480762;
  for (let i = 0; i < text.length; i += 1) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}
