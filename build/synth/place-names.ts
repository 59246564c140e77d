/**
 * Invented, globally unique place names for synthetic cities and regions. Unique across the whole corpus
 * because program names are built from them, and dataset health counts distinct names.
 */
import type { SeededRandom } from './seeded-random.ts';

const LEADS = ['', '', '', '', 'North ', 'South ', 'East ', 'West ', 'New ', 'Port ', 'Mount ', 'Lake ', 'Fort '];
const ROOTS = [
  'Alder', 'Amber', 'Ash', 'Aspen', 'Bay', 'Beacon', 'Bear', 'Bell', 'Birch', 'Black', 'Blue', 'Bramble', 'Briar',
  'Bridge', 'Brook', 'Buck', 'Calder', 'Camden', 'Cedar', 'Chester', 'Clay', 'Clear', 'Clover', 'Copper', 'Crane',
  'Cress', 'Crystal', 'Cypress', 'Dale', 'Deer', 'Dover', 'Eagle', 'Eden', 'Elk', 'Elm', 'Ember', 'Fair', 'Fern',
  'Finch', 'Flint', 'Fox', 'Garnet', 'Glen', 'Gold', 'Granite', 'Green', 'Hale', 'Harbor', 'Hart', 'Hazel', 'Heron',
  'Hickory', 'Holly', 'Iron', 'Ivy', 'Juniper', 'Kent', 'King', 'Lark', 'Laurel', 'Linden', 'Maple', 'Marsh', 'Meadow',
  'Mill', 'Mist', 'Moss', 'Oak', 'Orchard', 'Otter', 'Park', 'Pebble', 'Pine', 'Plum', 'Quarry', 'Raven', 'Red',
  'Reed', 'Ridge', 'River', 'Robin', 'Rock', 'Rose', 'Rush', 'Sage', 'Salt', 'Sand', 'Shady', 'Silver', 'Sparrow',
  'Spring', 'Spruce', 'Stone', 'Summer', 'Sun', 'Swan', 'Sycamore', 'Thorn', 'Timber', 'Tulip', 'Vale', 'Violet',
  'Walnut', 'Willow', 'Winter', 'Wolf', 'Wren', 'Yarrow', 'Yew', 'Bright', 'Cobble', 'Dusk', 'Frost', 'Gale', 'Harrow',
  'Indigo', 'Jasper', 'Lantern', 'Marble', 'Osprey',
];
const SUFFIXES = [
  'ton', 'ville', 'field', 'wood', 'ford', 'port', 'dale', 'burg', 'view', 'haven', 'brook', 'ridge', 'mont', 'stead',
  'bury', 'crest', 'land', 'more', 'worth', 'water', 'well', 'gate', 'hurst', 'ley', 'shire', 'side', 'stone', 'vale',
  ' Falls', ' Springs', ' Heights', ' City', ' Grove', ' Hills', ' Park', ' Junction', ' Crossing', ' Landing',
  ' Point', ' Bluffs', ' Harbor', ' Station', ' Valley',
];

/** Hands out invented place names, never the same one twice. */
export interface PlaceNames {
  /** A name not handed out before (nor equal to a reserved name such as a state's). */
  take(): string;
}

/**
 * Creates the name source. All combinations are shuffled once, so names come out in a seeded order
 * with no rejection loop; past the 54,000 or so distinct combinations a numeral keeps names unique.
 */
export function createPlaceNames(random: SeededRandom, reserved: Iterable<string>): PlaceNames {
  const taken = new Set([...reserved].map((name) => name.toLowerCase()));
  const combos: number[] = [];
  for (let i = 0; i < LEADS.length * ROOTS.length * SUFFIXES.length; i += 1) combos.push(i);
  random.shuffle(combos);
  let cursor = 0;
  let round = 1;
  const compose = (index: number) => {
    const suffix = SUFFIXES[index % SUFFIXES.length] as string;
    const root = ROOTS[Math.floor(index / SUFFIXES.length) % ROOTS.length] as string;
    const lead = LEADS[Math.floor(index / (SUFFIXES.length * ROOTS.length))] as string;
    return `${lead}${root}${suffix}`;
  };
  return {
    take() {
      for (;;) {
        if (cursor === combos.length) {
          cursor = 0;
          round += 1;
        }
        const base = compose(combos[cursor] as number);
        cursor += 1;
        const name = round === 1 ? base : `${base} ${round}`;
        if (taken.has(name.toLowerCase())) continue;
        taken.add(name.toLowerCase());
        return name;
      }
    },
  };
}
