/** Where the mechanical quote checks live, relative to the corpus folder (one definition for every reader and writer). */
export const QUOTE_CHECKS_FILE = 'evidence/quote-checks.ndjson';
