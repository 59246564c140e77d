/**
 * JSON Schemas of every corpus file: the one definition of the corpus format, enforced by ajv at load
 * time and documented in corpus/README.md. Cross-file rules live in check-corpus-references.ts.
 */
import { changeEventSchema } from '../contract/change-feed-schema.ts';
import { programFieldProperties as served, programRequired } from '../contract/program-schema.ts';
import { readinessThresholdsSchema } from '../contract/readiness-schema.ts';
import { CHANGE_TYPES } from '../contract/vocab-enums.ts';

const date = { type: 'string', format: 'date' } as const;
const slug = { type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 80 } as const;
const programId = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$' } as const;
const nonEmpty = { type: 'string', minLength: 1 } as const;
const stringList = { type: 'array', items: nonEmpty, uniqueItems: true } as const;

/** `corpus/manifest.json`: one object naming the dataset and its publication choices. */
export const manifestSchema = {
  $id: 'corpus:manifest',
  type: 'object',
  additionalProperties: false,
  required: ['dataset', 'contractVersion', 'asOf', 'defaultCity', 'sampleCity', 'exclusionPolicyVersion', 'readiness'],
  properties: {
    dataset: nonEmpty,
    // Optional so older corpora still load; `hra links check` needs it (or --user-agent) to name a contact.
    contact: { type: 'string', format: 'uri', pattern: '^https?://' },
    // Optional: where the deployment is reached. When set, every program envelope links its `docs` and `openapi`.
    publicBaseUrl: { type: 'string', format: 'uri', pattern: '^https?://[^?#]+$' },
    contractVersion: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+$' },
    asOf: date,
    defaultCity: slug,
    sampleCity: slug,
    exclusionPolicyVersion: { type: 'integer', minimum: 1 },
    readiness: {
      type: 'object',
      additionalProperties: false,
      required: ['thresholds', 'commercialRelease'],
      properties: {
        thresholds: readinessThresholdsSchema,
        commercialRelease: {
          type: 'object',
          additionalProperties: false,
          required: ['approved', 'decidedAt', 'note'],
          properties: {
            approved: { type: 'boolean' },
            decidedAt: date,
            decidedBy: nonEmpty,
            note: { type: 'string' },
          },
        },
      },
    },
  },
} as const;

/** One line of `corpus/cities.ndjson`: spec 2.6 plus the registry status (only `live` is licensed). */
export const cityRowSchema = {
  $id: 'corpus:city',
  type: 'object',
  additionalProperties: false,
  required: ['slug', 'name', 'state', 'stateAbbr', 'status'],
  properties: {
    slug,
    name: nonEmpty,
    state: nonEmpty,
    stateAbbr: { type: 'string', pattern: '^[A-Z]{2}$' },
    status: { enum: ['live', 'pending', 'paused', 'retired'] },
    description: { type: 'string' },
    lastUpdated: date,
    lat: { type: 'number', minimum: -90, maximum: 90 },
    lng: { type: 'number', minimum: -180, maximum: 180 },
    medianHomeValue: { type: 'integer', minimum: 0 },
    population: { type: 'integer', minimum: 0 },
    preWarHousingPct: { type: 'integer', minimum: 0, maximum: 100 },
  },
} as const;

/**
 * The correctable program fields of spec 2.1 (everything but the derived `freshness` and `contractor`): the
 * served field schemas, in their order, with what a maintainer's input must also meet layered over them.
 * Each added keyword only narrows the served type (`pattern`, `format` and `minimum` do not apply to the
 * null a nullable field may hold), so every valid row serializes to a valid served record.
 * Shared by program rows and by corrections, which must leave a row that still validates.
 */
export const programFieldSchemas = {
  ...served,
  id: { ...served.id, ...programId },
  name: { ...served.name, ...nonEmpty },
  source: { ...served.source, ...nonEmpty },
  eligibilityType: { ...served.eligibilityType, ...stringList, minItems: 1 },
  url: { ...served.url, pattern: '^https?://' },
  category: { ...served.category, ...nonEmpty },
  incomeRequirement: { ...served.incomeRequirement, ...nonEmpty },
  maxAmount: { ...served.maxAmount, minimum: 0 },
  projectTypes: { ...served.projectTypes, ...stringList },
  specialPopulations: { ...served.specialPopulations, ...stringList },
} as const;

export type ProgramFieldName = keyof typeof programFieldSchemas;

/**
 * One line of `corpus/programs/<city>.ndjson` or `corpus/national.ndjson`. Unknown keys are allowed
 * (maintainers' working notes, future fields) and never reach a response: serving goes through the
 * published Program schema (spec 9.5). `scope` is internal: `adjacent` marks a row outside home repair.
 */
export const programRowSchema = {
  $id: 'corpus:program',
  type: 'object',
  additionalProperties: true,
  required: programRequired,
  properties: {
    ...programFieldSchemas,
    scope: { enum: ['home-repair', 'adjacent'] },
    freshness: false,
    contractor: false,
  },
} as const;

/** One line of `corpus/policy/adjacent-scope.ndjson`: a rule that withholds rows outside home repair. */
export const adjacentRuleSchema = {
  $id: 'corpus:adjacent-rule',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'match', 'reason'],
  properties: {
    id: slug,
    match: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: {
        category: nonEmpty,
        scope: { const: 'adjacent' },
        nameContains: nonEmpty,
      },
    },
    reason: nonEmpty,
  },
} as const;

/** One line of `corpus/policy/quarantine.ndjson`: a known-problem record withheld from every response. */
export const quarantineEntrySchema = {
  $id: 'corpus:quarantine',
  type: 'object',
  additionalProperties: false,
  required: ['city', 'programId', 'reason', 'since'],
  properties: { city: slug, programId, reason: nonEmpty, since: date },
} as const;

const sha256 = { type: 'string', pattern: '^[0-9a-f]{64}$' } as const;

/** The WARC-Record-ID of the archived response a verdict rests on (the evidence archive, issue 32). */
const warcRecordId = { type: 'string', pattern: '^<urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}>$' } as const;

/**
 * One line of `corpus/evidence/link-checks.ndjson`: one attempt to fetch a cited URL. The latest attempt
 * per URL decides `linkStatus`; `inconclusive` keeps its date but reads as `unchecked`. `pageClass`
 * says whether a live page is about the program itself or is a generic agency page. `warcRecordId` and
 * `payloadSha256` name the archived response of the final hop; a line without them was not archived.
 */
export const linkCheckSchema = {
  $id: 'corpus:link-check',
  type: 'object',
  additionalProperties: false,
  required: ['url', 'checkedAt', 'outcome', 'httpStatus'],
  properties: {
    url: { type: 'string', format: 'uri', pattern: '^https?://' },
    checkedAt: date,
    outcome: { enum: ['live', 'dead', 'bot-blocked', 'inconclusive'] },
    httpStatus: { anyOf: [{ type: 'integer', minimum: 100, maximum: 599 }, { type: 'null' }] },
    pageClass: { enum: ['program', 'agency'] },
    warcRecordId,
    payloadSha256: sha256,
  },
  if: { properties: { outcome: { const: 'live' } } },
  then: { required: ['pageClass'] },
} as const;

/**
 * Who or what made a source review (issue 38): a model behind an OpenAI-compatible endpoint, named with
 * the prompt template's version, or a person by name. A line without it is hand-typed and "unattributed".
 */
export const reviewerSchema = {
  oneOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'model', 'endpointHost', 'promptVersion'],
      properties: { kind: { const: 'model' }, model: nonEmpty, endpointHost: nonEmpty, promptVersion: nonEmpty },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'name'],
      properties: { kind: { const: 'person' }, name: nonEmpty },
    },
  ],
} as const;

/**
 * One line of `corpus/evidence/source-reviews.ndjson`: a dated review of a program's cited page.
 * `identity` reviews judge only whether the page is the program; `amount` reviews also quote the page's
 * benefit ceiling verbatim, and say whether that quote was found mechanically in fetched text.
 * Provenance is optional: `reviewer`, the archived page it saw (`warcRecordId`, `payloadSha256`), and for
 * a model's review the archived model exchange (`exchange`), which only a model's review may carry.
 */
export const sourceReviewSchema = {
  $id: 'corpus:source-review',
  type: 'object',
  additionalProperties: false,
  required: ['city', 'programId', 'reviewedAt', 'kind', 'identityMatch'],
  properties: {
    city: slug,
    programId,
    reviewedAt: date,
    kind: { enum: ['identity', 'amount'] },
    identityMatch: { type: 'boolean' },
    amountQuote: nonEmpty,
    quoteFoundInPage: { type: 'boolean' },
    reviewer: reviewerSchema,
    warcRecordId,
    payloadSha256: sha256,
    exchange: {
      type: 'object',
      additionalProperties: false,
      required: ['requestRecordId', 'responseRecordId'],
      properties: { requestRecordId: warcRecordId, responseRecordId: warcRecordId },
    },
  },
  allOf: [
    {
      if: { properties: { kind: { const: 'amount' } } },
      then: { required: ['amountQuote', 'quoteFoundInPage'] },
      else: { not: { anyOf: [{ required: ['amountQuote'] }, { required: ['quoteFoundInPage'] }] } },
    },
    {
      if: { required: ['reviewer'], properties: { reviewer: { properties: { kind: { const: 'model' } } } } },
      then: { required: ['exchange', 'warcRecordId', 'payloadSha256'] },
      else: { not: { required: ['exchange'] } },
    },
  ],
} as const;

/**
 * One line of `corpus/evidence/quote-checks.ndjson`: one mechanical search for a review's amount quote in
 * the text of the page its record cites (`hra links check`). The check names the review it checked by its
 * date and the SHA-256 of its quote, so an edited quote is never credited with an older check. `found`
 * and `not-found` carry the extracted text's length and digest; `not-found` also the dollar amounts the
 * page states; `inconclusive` says why nothing could be concluded. From a fetch, `warcRecordId` and
 * `payloadSha256` name the archived page and `extractor` the extraction's version; a replay's re-derivation
 * adds `rederived` (the extractor that re-judged, and the `checkedAt` of the line it re-judged). A verdict
 * carried forward unextracted from an earlier check of the same bytes adds `reuses` (that line's `checkedAt`
 * and record); it is conclusive, and names today's record like any other line.
 */
export const quoteCheckSchema = {
  $id: 'corpus:quote-check',
  type: 'object',
  additionalProperties: false,
  required: ['city', 'programId', 'reviewedAt', 'quoteSha256', 'url', 'finalUrl', 'checkedAt', 'outcome', 'contentType'],
  properties: {
    city: slug,
    programId,
    reviewedAt: date,
    quoteSha256: sha256,
    url: { type: 'string', format: 'uri', pattern: '^https?://' },
    finalUrl: { anyOf: [{ type: 'string', format: 'uri', pattern: '^https?://' }, { type: 'null' }] },
    checkedAt: date,
    outcome: { enum: ['found', 'not-found', 'inconclusive'] },
    reason: nonEmpty,
    contentType: { anyOf: [nonEmpty, { type: 'null' }] },
    textLength: { type: 'integer', minimum: 0 },
    textSha256: sha256,
    statedAmounts: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['text', 'value'],
        properties: { text: nonEmpty, value: { type: 'number', minimum: 0 } },
      },
    },
    warcRecordId,
    payloadSha256: sha256,
    extractor: nonEmpty,
    rederived: {
      type: 'object',
      additionalProperties: false,
      required: ['extractor', 'from'],
      properties: { extractor: nonEmpty, from: date },
    },
    reuses: {
      type: 'object',
      additionalProperties: false,
      required: ['checkedAt', 'warcRecordId'],
      properties: { checkedAt: date, warcRecordId },
    },
  },
  allOf: [
    {
      if: { properties: { outcome: { const: 'inconclusive' } } },
      then: { required: ['reason'], not: { anyOf: [{ required: ['statedAmounts'] }] } },
      else: { required: ['textLength', 'textSha256'], not: { required: ['reason'] } },
    },
    {
      if: { properties: { outcome: { const: 'not-found' } } },
      then: { required: ['statedAmounts'] },
      else: { not: { required: ['statedAmounts'] } },
    },
    {
      // Only a conclusive verdict on archived bytes is carried forward, under the extractor that judged them.
      if: { required: ['reuses'] },
      then: { required: ['warcRecordId', 'payloadSha256', 'extractor'], properties: { outcome: { enum: ['found', 'not-found'] } }, not: { required: ['rederived'] } },
    },
  ],
} as const;

/** One line of `corpus/corrections.ndjson`: a durable manual fix applied over the stored row at build. */
export const correctionSchema = {
  $id: 'corpus:correction',
  type: 'object',
  additionalProperties: false,
  required: ['city', 'programId', 'field', 'value', 'reason', 'date'],
  properties: {
    city: slug,
    programId,
    field: { enum: Object.keys(programFieldSchemas).filter((name) => name !== 'id') },
    value: true,
    reason: nonEmpty,
    date,
  },
} as const;

/** `corpus/vocabularies.json`: the allowed facet values, and the aliases the `project` filter accepts. */
export const vocabulariesSchema = {
  $id: 'corpus:vocabularies',
  type: 'object',
  additionalProperties: false,
  required: ['categories', 'projectTypes', 'eligibilityTypes', 'specialPopulations', 'projectAliases'],
  properties: {
    categories: { ...stringList, items: slug },
    projectTypes: { ...stringList, items: slug },
    eligibilityTypes: { ...stringList, items: slug },
    specialPopulations: { ...stringList, items: slug },
    projectAliases: { type: 'object', propertyNames: slug, additionalProperties: slug },
  },
} as const;

/**
 * One line of `corpus/changes.ndjson`: a spec 2.7 change event with its durable id, stricter than the
 * served schema it extends: known event types and city slugs only.
 */
export const changeEventRowSchema = {
  $id: 'corpus:change-event',
  ...changeEventSchema,
  properties: { ...changeEventSchema.properties, city: slug, programId, type: { enum: CHANGE_TYPES } },
} as const;
