/** The HTTP contract version (spec 9.1), sent as `X-API-Version` and published as OpenAPI `info.version`. */
export const API_VERSION = '1.4.0';

/** The revision scheme prefix; `X-Dataset-Revision` matches REVISION_PATTERN. */
export const REVISION_SCHEME = 'gm1';

/** Pattern of a dataset revision (spec 4.1). */
export const REVISION_PATTERN = '^gm1-[a-f0-9]{64}$';

/** JSON Schema dialect of every published schema (OpenAPI 3.1 uses 2020-12). */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';
