/** Checks the `--at` value of `hra changes detect` before it becomes every new event's `detectedAt`. */
import { compileOnFirstUse } from '../corpus/compile-on-first-use.ts';

// The shape the change log should hold: a full ISO 8601 date-time with seconds and an explicit zone.
const SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

// The corpus loader's own `date-time` format judges calendar validity, so an accepted value always loads.
const corpusDateTime = compileOnFirstUse({ type: 'string', format: 'date-time' });

/** True when `text` is an ISO 8601 date-time with a timezone (`2026-11-16T06:00:00Z`, `...+02:00`). */
export function isChangeTimestamp(text: string): boolean {
  return SHAPE.test(text) && corpusDateTime()(text) === true;
}
