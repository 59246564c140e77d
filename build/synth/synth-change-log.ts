/**
 * Samples the synthetic change log: events modelled on the template's (type, statuses, amounts), at the
 * template's rate per row, spread over the template's date range, numbered in date order.
 */
import type { ChangeEventRow, ProgramRow } from '../corpus/corpus-types.ts';
import { scaleAmount } from './derive-synth-row.ts';
import type { SeededRandom } from './seeded-random.ts';

type PendingEvent = { at: number; seq: number; event: Record<string, unknown> };

/** Collects events while cities are generated; only the events themselves are held, never the rows. */
export class SynthChangeLog {
  readonly #templates: readonly ChangeEventRow[];
  readonly #random: SeededRandom;
  readonly #rate: number;
  readonly #start: number;
  readonly #span: number;
  readonly #withMillis: boolean;
  #pending: PendingEvent[] = [];

  constructor(templates: readonly ChangeEventRow[], templateRows: number, random: SeededRandom) {
    this.#templates = templates;
    this.#random = random;
    this.#rate = templateRows === 0 ? 0 : templates.length / templateRows;
    const times = templates.map((event) => Date.parse(event.detectedAt)).filter(Number.isFinite);
    this.#start = times.length > 0 ? Math.min(...times) : 0;
    this.#span = times.length > 0 ? Math.max(...times) - this.#start : 0;
    this.#withMillis = templates.some((event) => /\.\d+Z$/.test(event.detectedAt));
  }

  /** Gives one synthetic row its share of events: on average the template's events per row. */
  consider(city: string, row: ProgramRow, amountFactor: number): void {
    const whole = Math.floor(this.#rate);
    const count = whole + (this.#random.chance(this.#rate - whole) ? 1 : 0);
    for (let i = 0; i < count; i += 1) this.add(city, row, amountFactor);
  }

  /** Adds one event about `row` (no-op when the template has no events to model it on). */
  add(city: string, row: ProgramRow, amountFactor: number): void {
    if (this.#templates.length === 0) return;
    const model = this.#random.pick(this.#templates);
    // Whole seconds keep the timestamps as plain as the template's.
    const at = this.#start + Math.floor((this.#random.next() * this.#span) / 1000) * 1000;
    // The id comes first, as in the template; it is assigned once every event is known.
    const event: Record<string, unknown> = { id: 0 };
    for (const [key, value] of Object.entries(model)) {
      if (key === 'id') continue;
      else if (key === 'detectedAt') event.detectedAt = this.#format(at);
      else if (key === 'city') event.city = city;
      else if (key === 'programId') event.programId = row.id;
      else if (key === 'programName') event.programName = value === null ? null : row.name;
      else if (key === 'fromAmount' || key === 'toAmount') event[key] = typeof value === 'number' ? (scaleAmount(value, amountFactor) ?? value) : value;
      else event[key] = value;
    }
    this.#pending.push({ at, seq: this.#pending.length, event });
  }

  /** The events in date order (ties in generation order), with ids 1, 2, 3, ... */
  finish(): ChangeEventRow[] {
    const ordered = this.#pending.sort((a, b) => a.at - b.at || a.seq - b.seq);
    this.#pending = [];
    return ordered.map(({ event }, index) => {
      event.id = index + 1;
      return event as unknown as ChangeEventRow;
    });
  }

  #format(at: number): string {
    const iso = new Date(at).toISOString();
    return this.#withMillis ? iso : iso.replace(/\.\d{3}Z$/, 'Z');
  }
}
