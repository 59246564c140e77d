/** Derives a synthetic city's registry row, with the optional fields a template city carries. */
import type { CityRow } from '../corpus/corpus-types.ts';
import type { PlannedCity } from './plan-synth-corpus.ts';
import type { SeededRandom } from './seeded-random.ts';
import { slugify } from './slugify.ts';

/** The city's slug: its name and state, so invented names never clash with the `national` slug. */
export function synthCitySlug(city: Pick<PlannedCity, 'name' | 'state'>): string {
  return slugify(`${city.name} ${city.state.abbr}`, 80);
}

/** Builds the row for `city`, taking which optional fields to fill (and their style) from `template`. */
export function deriveSynthCity(city: PlannedCity, template: CityRow, random: SeededRandom): CityRow {
  const row: CityRow = { slug: synthCitySlug(city), name: city.name, state: city.state.name, stateAbbr: city.state.abbr, status: city.status };
  const swap = (text: string) => text.split(template.name).join(city.name).split(template.state).join(city.state.name);
  if (template.description !== undefined) row.description = swap(template.description);
  if (template.lastUpdated !== undefined) row.lastUpdated = template.lastUpdated;
  if (template.lat !== undefined) row.lat = round(clamp(city.state.lat + (random.next() - 0.5) * 3, -90, 90), 4);
  if (template.lng !== undefined) row.lng = round(clamp(city.state.lng + (random.next() - 0.5) * 4, -180, 180), 4);
  if (template.medianHomeValue !== undefined) {
    row.medianHomeValue = Math.round((template.medianHomeValue * Math.exp(0.35 * random.normal())) / 1000) * 1000;
  }
  if (template.population !== undefined) row.population = city.population;
  if (template.preWarHousingPct !== undefined) {
    row.preWarHousingPct = Math.round(clamp(template.preWarHousingPct + 12 * random.normal(), 0, 100));
  }
  return row;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
