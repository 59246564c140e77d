/**
 * The slug under which the federal layer is filed: its corpus file, evidence and corrections at build time,
 * its records and `/national` routes in the snapshot and gateway. No city may take it.
 */
export const NATIONAL_SLUG = 'national';
