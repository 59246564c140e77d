/** Parameter components of the OpenAPI description (spec 4.3, 4.4, 8). */
import { FUNDING_STATUSES, INCOME_TIERS } from '../../build/contract/vocab-enums.ts';
import { DEFAULT_CHANGE_LIMIT, MAX_CHANGE_LIMIT } from '../changes/parse-change-query.ts';

const ONCE = 'Give it at most once: a repeated parameter is a 400 `INVALID_PARAMETER`. An empty value counts as absent.';
const filterValue = { type: 'string', maxLength: 200 } as const;
const VOCABULARY = 'Values are dataset-defined: the served values are the corpus vocabulary of this revision (lowercase slugs such as those seen in served records), not a closed list in this contract. An unknown value yields a valid empty collection, not an error.';

/** `components.parameters`, by name. */
export const openApiParameters = {
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'ETag(s) from an earlier response, comma-separated, or `*`. A match (weak comparison) returns 304 with no body.',
    schema: { type: 'string' },
  },
  RequestId: {
    name: 'X-Request-ID',
    in: 'header',
    required: false,
    description: 'Caller correlation ID, echoed in the response when safe; otherwise replaced by a generated opaque ID. A value shaped like an API key (starting `hra_t_`, `hra_n_` or `hra_c_`, in any case) is never safe: never send a key here.',
    schema: { type: 'string', minLength: 8, maxLength: 80, pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{7,79}$' },
  },
  City: {
    name: 'city',
    in: 'path',
    required: true,
    description: 'Slug of a licensed live city. A city that does not exist or is not live gives 404; for a trial key, a city outside its allowlist gives 403 `API_TRIAL_CITY_FORBIDDEN`.',
    schema: { type: 'string', minLength: 1 },
  },
  ProgramId: {
    name: 'programId',
    in: 'path',
    required: true,
    description: 'Program identifier, stable within its city.',
    schema: { type: 'string', minLength: 1 },
  },
  TypeFilter: {
    name: 'type',
    in: 'query',
    required: false,
    description: `Exact member of \`eligibilityType\` (e.g. homeowner, renter, business). ${VOCABULARY} ${ONCE}`,
    schema: filterValue,
  },
  IncomeFilter: {
    name: 'income',
    in: 'query',
    required: false,
    description: `The household's income tier, matched on the hierarchy ${INCOME_TIERS.join(' < ')}: a record matches when its stated income ceiling admits that tier (\`low\` matches low, moderate and any records; \`any\` matches only \`any\` records). Records whose income text states no readable ceiling match every tier, so a program is never hidden for unparsed text; read the stored \`incomeRequirement\`. A stored \`any\` is a sentinel, not proof that no income test applies. Other values match nothing (valid empty collection). ${ONCE}`,
    schema: { ...filterValue, examples: INCOME_TIERS },
  },
  ProjectFilter: {
    name: 'project',
    in: 'query',
    required: false,
    description: `Member of \`projectTypes\`, case-insensitive. Besides the canonical project types, the dataset's project aliases are accepted: each alias resolves to one canonical project type before matching. Project types and aliases are dataset-defined (corpus vocabulary of this revision). ${ONCE}`,
    schema: filterValue,
  },
  SpecialFilter: {
    name: 'special',
    in: 'query',
    required: false,
    description: `Special population (e.g. seniors, veterans, disabled). Records with no stored population restriction also match, whatever the value; records restricted to another group do not. So a value outside the dataset's vocabulary (lowercase slugs such as those seen in served records) yields the unrestricted records, not an empty collection. ${ONCE}`,
    schema: filterValue,
  },
  CategoryFilter: {
    name: 'category',
    in: 'query',
    required: false,
    description: `Exact stored \`category\`. ${VOCABULARY} ${ONCE}`,
    schema: filterValue,
  },
  StatusFilter: {
    name: 'status',
    in: 'query',
    required: false,
    description: `Exact stored \`fundingStatus\`. A value outside the enum is a 400 \`INVALID_STATUS_FILTER\`. ${ONCE}`,
    schema: { enum: FUNDING_STATUSES },
  },
  CityStatus: {
    name: 'status',
    in: 'query',
    required: false,
    description: `Exact registry status. The licensed scope holds only \`live\` cities, so any other value yields a valid empty index. ${ONCE}`,
    schema: { type: 'string', examples: ['live'] },
  },
  Since: {
    name: 'since',
    in: 'query',
    required: true,
    description: 'Return events detected at or after UTC midnight of this calendar date (YYYY-MM-DD). Required: there is no default, and a missing, empty, repeated or invalid date is a 400 `INVALID_DATE`. Keep it identical on every page.',
    schema: { type: 'string', format: 'date' },
  },
  Limit: {
    name: 'limit',
    in: 'query',
    required: false,
    description: `Page size; default ${DEFAULT_CHANGE_LIMIT}. Anything but a plain decimal integer from 1 to ${MAX_CHANGE_LIMIT} (empty, repeated, signed, leading zero, fractional) is a 400 \`INVALID_LIMIT\`.`,
    schema: { type: 'integer', minimum: 1, maximum: MAX_CHANGE_LIMIT, default: DEFAULT_CHANGE_LIMIT },
  },
  ChangeCity: {
    name: 'city',
    in: 'query',
    required: false,
    description: 'Restrict the feed to one licensed live city; an empty value counts as absent. Required for trial keys (400 `API_TRIAL_CITY_REQUIRED` if omitted) and must then be on the allowlist (403 `API_TRIAL_CITY_FORBIDDEN`). A repeated or malformed slug is a 400 `INVALID_CITY_SLUG` for every tier; a well-formed slug that is not a licensed live city is a 400 `UNKNOWN_CITY` (the feed is filtered by the city, not the city itself: spec 7 files an invalid city slug here under 400). Keep it identical on every page.',
    schema: { type: 'string', pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', maxLength: 100 },
  },
  Cursor: {
    name: 'cursor',
    in: 'query',
    required: false,
    description: 'The opaque `nextCursor` of the previous page. A cursor that is empty, repeated, malformed, forged, or sent with a different `since` or `city` is a 400 `INVALID_CURSOR` (an empty cursor never silently restarts the walk). A sound cursor signed under a cursor secret this gateway does not hold is a 503 `CURSOR_SECRET_MISMATCH` (a deployment fault; retry it unchanged). Cursors hold event ids, not the revision, so they survive dataset updates.',
    schema: { type: 'string', minLength: 1, maxLength: 1024 },
  },
} as const;

/** A parameter component's name. */
export type ParameterComponent = keyof typeof openApiParameters;

/** `$ref`s to parameter components, in order. */
export function parameterRefs(...names: readonly ParameterComponent[]): Array<{ $ref: string }> {
  return names.map((name) => ({ $ref: `#/components/parameters/${name}` }));
}

/** The six program-collection filters, combined with logical AND. */
export const PROGRAM_FILTER_PARAMETERS = [
  'TypeFilter', 'IncomeFilter', 'ProjectFilter', 'SpecialFilter', 'CategoryFilter', 'StatusFilter',
] as const satisfies readonly ParameterComponent[];
