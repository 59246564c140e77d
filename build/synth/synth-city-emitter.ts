/**
 * Writes one synthetic city at a time: its program file, and its lines of the evidence, correction and
 * quarantine files. Only what later cities need is kept: shared programs, names and URLs already used.
 */
import { join } from 'node:path';
import type { ProgramRow } from '../corpus/corpus-types.ts';
import { deriveSynthCity, synthCitySlug } from './derive-synth-city.ts';
import { deriveLinkChecks, deriveRecordEvidence } from './derive-synth-evidence.ts';
import { createPlaceSwap, deriveSynthRow, type SynthRowTarget } from './derive-synth-row.ts';
import { fictionalPhone } from './fictional-phone.ts';
import { NdjsonWriter } from './ndjson-writer.ts';
import type { PlannedCity, PlannedSharedProgram } from './plan-synth-corpus.ts';
import type { SynthTemplate, TemplateRow } from './read-synth-template.ts';
import type { SeededRandom } from './seeded-random.ts';
import { slugify } from './slugify.ts';
import type { SynthChangeLog } from './synth-change-log.ts';
import { SynthProgramNamer } from './synth-program-namer.ts';

/** The corpus-wide files a city contributes lines to. */
export interface SynthSharedFiles {
  cities: NdjsonWriter;
  linkChecks: NdjsonWriter;
  sourceReviews: NdjsonWriter;
  corrections: NdjsonWriter;
  quarantine: NdjsonWriter;
}

/** Counts over live cities, measured the way dataset health measures them. */
export interface SynthCounts {
  liveCities: number;
  liveRows: number;
  distinctNames: number;
  locallyUniqueNames: number;
  distinctUrls: number;
  allCities: number;
  allRows: number;
  programBytes: number;
}

// Most programs keep the template's amount; some are scaled, as amounts differ from place to place.
const AMOUNT_FACTORS = [1, 1, 1, 1, 0.8, 0.9, 1.1, 1.25, 1.5];
const CITY_AGENCIES = ['housing', 'community-development', 'neighborhoods'];

type Planned = { template: TemplateRow; target: SynthRowTarget };

/** Emits cities of one plan in order; call emit() once per planned city, then counts(). */
export class SynthCityEmitter {
  readonly #template: SynthTemplate;
  readonly #files: SynthSharedFiles;
  readonly #programsDir: string;
  readonly #urlsPerProgram: number;
  readonly #changes: SynthChangeLog;
  readonly #random: SeededRandom;
  readonly #namer = new SynthProgramNamer();
  readonly #shared = new Map<string, Planned & { liveCities: number }>();
  readonly #urls = new Set<string>();
  #counts = { liveCities: 0, liveRows: 0, localNames: 0, liveUrls: 0, allCities: 0, allRows: 0, programBytes: 0 };

  constructor(
    template: SynthTemplate, files: SynthSharedFiles, programsDir: string, urlsPerProgram: number, changes: SynthChangeLog, random: SeededRandom,
  ) {
    this.#template = template;
    this.#files = files;
    this.#programsDir = programsDir;
    this.#urlsPerProgram = urlsPerProgram;
    this.#changes = changes;
    this.#random = random;
  }

  /** Writes `city` (with the state and regional programs it carries); returns its slug and row count. */
  emit(city: PlannedCity, statePrograms: readonly PlannedSharedProgram[], regional: readonly PlannedSharedProgram[]): { slug: string; rows: number } {
    const slug = synthCitySlug(city);
    const live = city.status === 'live';
    this.#files.cities.write(deriveSynthCity(city, this.#random.pick(this.#template.liveCities), this.#random));
    const planned: Array<Planned & { shared?: { liveCities: number } }> = [];
    if (live) {
      statePrograms.forEach((program, index) => planned.push(this.#sharedProgram(`s:${city.state.abbr}:${index}`, program, index)));
      for (const index of city.regional) planned.push(this.#sharedProgram(`r:${index}`, regional[index] as PlannedSharedProgram, index));
    }
    planned.push(...this.#localPrograms(city, slug));

    const file = new NdjsonWriter(join(this.#programsDir, `${slug}.ndjson`));
    let first: { row: ProgramRow; factor: number } | undefined;
    for (const { template, target, shared } of planned) {
      const row = deriveSynthRow(template, target);
      file.write(row);
      first ??= { row, factor: target.amountFactor };
      if (row.url !== null && !this.#urls.has(row.url)) {
        this.#urls.add(row.url);
        if (live) this.#counts.liveUrls += 1;
        for (const check of deriveLinkChecks(template, row.url)) this.#files.linkChecks.write(check);
      }
      const evidence = deriveRecordEvidence(template, slug, row, target);
      for (const review of evidence.reviews) this.#files.sourceReviews.write(review);
      for (const correction of evidence.corrections) this.#files.corrections.write(correction);
      for (const entry of evidence.quarantine) this.#files.quarantine.write(entry);
      this.#changes.consider(slug, row, target.amountFactor);
      if (live && shared) shared.liveCities += 1;
      else if (live) this.#counts.localNames += 1;
    }
    // Every city that is not live still shows up in the change log, as real registries' do.
    if (!live && first) this.#changes.add(slug, first.row, first.factor);
    this.#counts.programBytes += file.close();
    this.#counts.allCities += 1;
    this.#counts.allRows += planned.length;
    if (live) {
      this.#counts.liveCities += 1;
      this.#counts.liveRows += planned.length;
    }
    return { slug, rows: planned.length };
  }

  /** The counts so far. */
  counts(): SynthCounts {
    const shared = [...this.#shared.values()].filter((program) => program.liveCities > 0);
    const sharedUnique = shared.filter((program) => program.liveCities === 1).length;
    const { localNames, liveUrls, ...rest } = this.#counts;
    return { ...rest, distinctNames: localNames + shared.length, locallyUniqueNames: localNames + sharedUnique, distinctUrls: liveUrls };
  }

  #sharedProgram(key: string, program: PlannedSharedProgram, index: number): Planned & { shared: { liveCities: number } } {
    let entry = this.#shared.get(key);
    if (!entry) {
      const template = this.#random.pick(this.#template.sharedRows);
      const base = slugify(template.row.id, 60);
      const id = program.kind === 'state' ? `${program.state.abbr.toLowerCase()}-${base}-s${index + 1}` : `${base}-r${index + 1}`;
      const host = program.kind === 'state' ? `housing.${slugify(program.state.name)}` : slugify(program.place);
      const url = `https://${host}.example.org/programs/${id}`;
      const target = this.#target(template, id, { place: program.hub, stateName: program.state.name }, program.place, url);
      entry = { template, target, liveCities: 0 };
      this.#shared.set(key, entry);
    }
    return { template: entry.template, target: entry.target, shared: entry };
  }

  #localPrograms(city: PlannedCity, slug: string): Planned[] {
    const planned: Planned[] = [];
    for (let k = 0; k < city.localCount; k += 1) {
      const template = this.#random.pick(this.#template.localRows);
      const id = `${slugify(template.row.id, 60)}-l${k + 1}`;
      planned.push({ template, target: this.#target(template, id, { place: city.name, stateName: city.state.name }, city.name, null) });
    }
    // URLs: when programs outnumber the city's URL budget, several cite one agency's general page.
    const withUrl = this.#random.shuffle(planned.filter((entry) => entry.template.row.url !== null));
    const exact = withUrl.length * this.#urlsPerProgram;
    const budget = Math.max(1, Math.floor(exact) + (this.#random.chance(exact - Math.floor(exact)) ? 1 : 0));
    const agencyPages = withUrl.length <= budget ? 0 : Math.min(budget, this.#random.between(1, CITY_AGENCIES.length));
    const ownPages = withUrl.length <= budget ? withUrl.length : budget - agencyPages;
    withUrl.forEach((entry, index) => {
      const agency = index < ownPages ? this.#random.pick(CITY_AGENCIES) : CITY_AGENCIES[(index - ownPages) % agencyPages] as string;
      const host = `https://${agency}.${slug}.example.org`;
      entry.target.url = index < ownPages ? `${host}/programs/${entry.target.id}` : `${host}/home-repair`;
    });
    return planned;
  }

  /** `places` swap into the template's texts; `namePlace` prefixes the name (a city, state or area). */
  #target(template: TemplateRow, id: string, places: { place: string; stateName: string }, namePlace: string, url: string | null): SynthRowTarget {
    const base = createPlaceSwap(template, places)(template.row.name);
    return {
      id,
      name: this.#namer.name(base, namePlace, () => this.#random.int(SynthProgramNamer.agencyCount)),
      url,
      ...places,
      amountFactor: this.#random.pick(AMOUNT_FACTORS),
      phone: fictionalPhone(typeof template.row.phone === 'string' ? template.row.phone : '', this.#random),
    };
  }
}
