/**
 * How rehearsal data is marked (`hra rehearse`): the copied corpus's manifest names its dataset with this
 * prefix, so every snapshot built from it carries the mark in its `meta` table, and `npm start` refuses one.
 */

/** The prefix of a rehearsal corpus's `dataset` name. */
export const REHEARSAL_DATASET_PREFIX = 'rehearsal-';

/** True when `dataset` (a manifest's or a snapshot's) names rehearsal data. */
export function isRehearsalDataset(dataset: string): boolean {
  return dataset.startsWith(REHEARSAL_DATASET_PREFIX);
}
