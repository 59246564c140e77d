/**
 * Plans the shape of a synthetic corpus before any row is written: which cities exist in which state,
 * how many local programs and distinct URLs each city gets, and which shared (state and regional)
 * programs each city carries. Sized from the published scale of the largest real service of this kind.
 */
import { createPlaceNames } from './place-names.ts';
import type { SeededRandom } from './seeded-random.ts';
import { US_STATES, type UsState } from './us-states.ts';

/** The published scale that `scale: 1` reproduces. */
export const PUBLISHED_SCALE = {
  liveCities: 2200,
  rows: 57_000,
  distinctPrograms: 23_000,
  localPrograms: 19_000,
  distinctUrls: 12_300,
} as const;

/** State programs per state at full scale (varied per state); the rest of the shared layer is regional. */
const STATE_PROGRAMS_PER_STATE = 12;

/** A city of the plan. */
export interface PlannedCity {
  name: string;
  state: UsState;
  status: 'live' | 'pending' | 'paused';
  population: number;
  localCount: number;
  /** Indices into SynthPlan.regional of the regional programs this city carries. */
  regional: number[];
}

/** A shared program: a state program carried by every live city of its state, or a regional one. */
export interface PlannedSharedProgram {
  kind: 'state' | 'regional';
  /** The place named in the program's name: the state, or the hub city's area. */
  place: string;
  /** The largest city it serves: stands in for the template's city wherever the template's texts name it. */
  hub: string;
  state: UsState;
}

/** The whole plan; program rows are derived from it city by city. */
export interface SynthPlan {
  cities: PlannedCity[];
  /** State programs by state abbreviation. */
  statePrograms: Map<string, PlannedSharedProgram[]>;
  regional: PlannedSharedProgram[];
  /** Distinct URLs per local program that cites one: below 1, several programs cite one agency page. */
  localUrlsPerProgram: number;
}

/** The template's shares of rows that cite a URL at all: rows without one add no distinct URL. */
export interface UrlShares {
  local: number;
  shared: number;
}

/** Plans a corpus at `scale` (1 = published scale) from the seeded stream. */
export function planSynthCorpus(scale: number, urlShares: UrlShares, random: SeededRandom): SynthPlan {
  const places = createPlaceNames(random.fork('places'), US_STATES.map((state) => state.name));
  const liveTotal = Math.max(1, Math.round(PUBLISHED_SCALE.liveCities * scale));
  const perState = apportion(US_STATES.map((state) => state.weight), liveTotal);
  const cities: PlannedCity[] = [];
  US_STATES.forEach((state, index) => {
    for (let i = 0; i < (perState[index] ?? 0); i += 1) cities.push(plannedCity(places.take(), state, 'live', random));
  });

  const localTotal = Math.round(PUBLISHED_SCALE.localPrograms * (liveTotal / PUBLISHED_SCALE.liveCities));
  // Bigger cities run more programs of their own, but far less than in proportion to population.
  const locals = apportion(cities.map((city) => Math.sqrt(city.population)), localTotal);
  cities.forEach((city, index) => (city.localCount = Math.max(1, locals[index] ?? 0)));

  const ratio = liveTotal / PUBLISHED_SCALE.liveCities;
  const sharedPrograms = Math.round((PUBLISHED_SCALE.distinctPrograms - PUBLISHED_SCALE.localPrograms) * ratio);
  const sharedRows = Math.round((PUBLISHED_SCALE.rows - PUBLISHED_SCALE.localPrograms) * ratio);
  const statesWithCities = US_STATES.filter((_, index) => (perState[index] ?? 0) > 0);
  // At small scales few cities share a state; cap the state layer so it stays a minority of programs.
  const perStateMean = Math.max(1, Math.min(STATE_PROGRAMS_PER_STATE, Math.floor((0.5 * sharedPrograms) / statesWithCities.length)));
  const statePrograms = new Map<string, PlannedSharedProgram[]>();
  let stateRows = 0;
  for (const state of statesWithCities) {
    const count = Math.max(1, Math.round(perStateMean * (0.6 + 0.8 * random.next())));
    const hub = largest(cities.filter((city) => city.state === state)).name;
    statePrograms.set(state.abbr, Array.from({ length: count }, () => ({ kind: 'state' as const, place: state.name, hub, state })));
    stateRows += count * (perState[US_STATES.indexOf(state)] ?? 0);
  }

  const stateProgramCount = [...statePrograms.values()].reduce((n, list) => n + list.length, 0);
  const regional = planRegional(cities, sharedPrograms - stateProgramCount, sharedRows - stateRows, random);
  // The URLs left for local programs after each shared program's own, spread over local programs that cite one.
  const localUrls = Math.round(PUBLISHED_SCALE.distinctUrls * ratio) - sharedPrograms * urlShares.shared;
  const localUrlsPerProgram = Math.min(1, Math.max(0, localUrls) / Math.max(1, localTotal * urlShares.local));

  // A handful of cities that are not live (onboarding or paused), each with a few rows of its own.
  const notLive = Math.max(2, Math.min(12, Math.round(6 * scale)));
  for (let i = 0; i < notLive; i += 1) {
    const city = plannedCity(places.take(), random.pick(statesWithCities), i % 2 === 0 ? 'pending' : 'paused', random);
    city.localCount = random.between(2, 5);
    cities.push(city);
  }
  return { cities, statePrograms, regional, localUrlsPerProgram };
}

function plannedCity(name: string, state: UsState, status: PlannedCity['status'], random: SeededRandom): PlannedCity {
  // Log-normal populations: a few large cities, a long tail of towns, as in the census.
  const population = Math.max(2_000, Math.round(Math.exp(10.3 + 1.3 * random.normal())));
  return { name, state, status, population, localCount: 0, regional: [] };
}

/** Regional programs: each shared by a run of neighbouring cities (contiguous in state order). */
function planRegional(cities: PlannedCity[], programs: number, rows: number, random: SeededRandom): PlannedSharedProgram[] {
  const live = cities.length;
  if (programs <= 0 || live < 2) return [];
  const meanExtra = Math.max(0, Math.min(live, rows / programs) - 2);
  const regional: PlannedSharedProgram[] = [];
  for (let index = 0; index < programs; index += 1) {
    const size = Math.min(live, 2 + Math.round(-Math.log(1 - random.next()) * meanExtra));
    const start = random.int(live);
    const members = Array.from({ length: size }, (_, k) => cities[(start + k) % live] as PlannedCity);
    const hub = largest(members);
    regional.push({ kind: 'regional', place: `${hub.name} Area`, hub: hub.name, state: hub.state });
    for (const city of members) city.regional.push(index);
  }
  return regional;
}

function largest(cities: readonly PlannedCity[]): PlannedCity {
  return cities.reduce((best, city) => (city.population > best.population ? city : best));
}

/** Splits `total` over `weights` by largest remainder, so the parts sum exactly to `total`. */
export function apportion(weights: readonly number[], total: number): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((weight) => (sum === 0 ? 0 : (weight / sum) * total));
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const order = exact.map((value, index) => ({ index, rest: value - Math.floor(value) })).sort((a, b) => b.rest - a.rest || a.index - b.index);
  for (const { index } of order) {
    if (left <= 0) break;
    parts[index] = (parts[index] ?? 0) + 1;
    left -= 1;
  }
  return parts;
}
