/** The `info` object and tags of the OpenAPI description: what the service is, rules that bind clients, decisions. */
import { API_VERSION } from '../../build/contract/api-version.ts';
import { CHANGE_TYPES } from '../../build/contract/vocab-enums.ts';
import { ERROR_CODES } from '../http/api-error.ts';
import { DEFAULT_LIMITS, LIMIT_TIERS, type LimitRule } from '../limits/limit-table.ts';
import { CACHE_CONTROL } from '../vocabulary/success-caching.ts';
import type { RouteTable } from '../routes/route-entry.ts';
import { ERROR_CODE_STATUS } from './error-code-meanings.ts';
import { etagAllowlist } from './header-components.ts';
import { REFUSED_BEFORE_ANY_ROUTE } from './openapi-headers.ts';
import { openApiPathOf } from './openapi-paths.ts';

const TIER_SCOPES: Readonly<Record<(typeof LIMIT_TIERS)[number], string>> = {
  trial: 'One to five approved live cities; expires within 30 days; no national layer.',
  nonprofit: 'Licensed live-city scope after manual eligibility and scope review.',
  commercial: 'Licensed live-city scope under the applicable agreement.',
};

const perDay = (rule: LimitRule) => (rule.perDay === null ? 'no day window' : groupThousands(rule.perDay));

/**
 * `2000` as `2,000`, as `toLocaleString('en-US')` writes a whole number, without it: the first Intl number
 * format loads ICU, over 100 ms of the gateway's start-up (BENCHMARKS.md "Start-up"), for one template.
 */
function groupThousands(count: number): string {
  return Number.isSafeInteger(count) ? String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : count.toLocaleString('en-US');
}

function tierTable(): string {
  const rows = LIMIT_TIERS.map((tier) => {
    const rule = DEFAULT_LIMITS.tiers[tier];
    return `| ${tier} | ${rule.perMinute} | ${perDay(rule)} | ${TIER_SCOPES[tier]} |`;
  });
  return ['| Tier | Per minute | Per day | Scope |', '|---|---|---|---|', ...rows].join('\n');
}

function errorCodeTable(): string {
  const byStatus = new Map<number, string[]>();
  for (const code of ERROR_CODES) {
    const status = ERROR_CODE_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), `\`${code}\``]);
  }
  const rows = [...byStatus].sort(([a], [b]) => a - b).map(([status, codes]) => `| ${status} | ${codes.join(', ')} |`);
  return ['| Status | Codes |', '|---|---|', ...rows].join('\n');
}

function description(routes: RouteTable): string {
  const pub = DEFAULT_LIMITS.public;
  return `A read-only JSON API of home-improvement grant, rebate and forgivable-loan programs, organized by US city. Records are bilingual (English and Spanish) in \`description\`, \`maxAmountLabel\` and \`deadline\`; each carries its cited \`url\` and a \`freshness\` provenance object. Only records in the licensed live-city scope are served: records outside home repair and known-problem (quarantined) records are withheld, and list responses count them in \`excludedBySafetyPolicy\`. The service also serves licensed city metadata and counts, a pull change feed, public dataset-health and readiness reports, JSON Schemas of the program record and export row, this description, and a keyless sample of one evaluation city. There are no write operations and no bulk file or snapshot delivery.

**The data is for discovery and research, not eligibility.** The service is not an eligibility engine and holds no applicant, lead, bank or identity data. Stored labels can lag (\`fundingStatus\`; an \`incomeRequirement\` of \`any\` is a sentinel), and \`linkStatus: live\` only means the URL resolved.

## Usage rules that bind clients

1. Surface the record's cited \`url\` and a verification warning for any application, budgeting or consumer-facing decision.
2. Do not place licensed responses in a shared public cache (they are \`private, no-store\` and vary on \`X-Api-Key\`).
3. Keep an empty result distinct from a failed request; treat 503 as retryable, never as an empty dataset.
4. Keep API keys server-side: never in browser code or URLs.
5. Branch on the status and \`code\`; the \`error\` text can change.
6. On 429 and 503, back off exponentially with jitter, honoring \`Retry-After\` when present.
7. Give every Spanish field an explicit fallback: a language field can be empty, stale or ambiguous.
8. Reconcile each change event's program ID with the scoped program endpoint before downstream use.
9. A red readiness gate (\`checkoutEnabled\` false or code \`DATASET_CHECKOUT_NOT_READY\`) stops procurement or delivery.
10. Read the contract version from \`X-API-Version\` or \`info.version\` at runtime.

## Outside the JSON contract

\`/docs\`, on the host serving this document, serves this description as a readable HTML reference, and \`/healthz\` and \`/readyz\` are operational probes for load balancers: they are documented here, but they are not dataset responses for clients to parse. \`/docs\` is keyless and metered like the other keyless routes, with a strong \`ETag\`; \`/healthz\` and \`/readyz\` are never metered.

## Access and limits

Licensed routes require \`X-Api-Key\` (missing: 401 \`API_KEY_REQUIRED\`; invalid: 401 \`INVALID_API_KEY\`; revoked, expired, malformed trial or out of scope: 403). Tier limits are resolved from the key's current tier at each request:

${tierTable()}

Keyless routes (including \`/openapi.json\`) are metered per client address: ${pub.perMinute} requests per minute, ${perDay(pub)}. These are the default limits; an operator may configure others, and the X-RateLimit-* and \`RateLimit-Policy\` headers always state the limits in force. When rate-limit storage is unreachable, keyless routes keep serving without rate-limit headers, while licensed routes fail closed with 503. Authentication outages return 503, never unvalidated licensed data. Every path answers 405 \`METHOD_NOT_ALLOWED\` (with \`Allow: GET, HEAD\`) to any method other than GET or HEAD; HEAD is accepted wherever GET is. HEAD operations are not declared: HEAD answers exactly as the GET operation of the same path documents (same status and headers), with no body (RFC 9110 9.3.2), so a second operation per path would only repeat the first. Hostile or broken requests get JSON errors too: 400 \`MALFORMED_REQUEST\` for what is not well-formed HTTP, 400 \`MALFORMED_URL\` for a request target with a malformed percent-escape (a \`%\` not followed by two hex digits, or escapes that do not decode to UTF-8) in the path or the query, 408 \`REQUEST_TIMEOUT\` for headers slower than 10 s or a request slower than 30 s, 414 \`URI_TOO_LONG\` for a request target over 8,192 characters, 431 \`HEADERS_TOO_LARGE\` for a request line and headers over 16 KiB; a connection serves at most 1,000 requests.

## Caching

${etagAllowlist(routes)} are \`${CACHE_CONTROL.cacheable}\`, return a strong \`ETag\` per content coding and honor \`If-None-Match\`: 304, no body, when it names the tag of the representation the request selects (the coding a 200 would send it now), and that 304 carries that tag. Every keyless response carries its caller's own \`X-Request-ID\` and rate-limit counters, so a shared cache may store these documents but must revalidate before each reuse, and the 304 brings each client its own headers. Health and readiness are \`${CACHE_CONTROL.revalidate}\` without ETag; report artifacts are \`${CACHE_CONTROL.report}\`; licensed responses are \`${CACHE_CONTROL.licensed}\` with \`Vary: X-Api-Key\` and no ETag; errors are \`no-store\`, and those a licensed route answers after accepting the key keep \`Vary: X-Api-Key\`.

## Versioning

Unprefixed routes are the 1.x contract; compatible minor releases may add optional fields and endpoints, and a breaking change gets a new major prefix such as \`/api/v2\`. \`X-Dataset-Revision\` (\`gm1-\` and 64 hex digits) identifies the served generation on successful responses; collection, sample, health and change-feed bodies also carry \`datasetRevision\`. ${deprecatedOperations(routes)}

## Decisions this description fixes where the specification leaves them open

- **Error codes** (every error body has a \`code\`; each operation lists the codes it can send):

${errorCodeTable()}

- **Change feed**: \`since\` is required (no default); \`limit\` defaults to 100 (1 to 1000). Event \`type\` values: ${CHANGE_TYPES.map((type) => `\`${type}\``).join(', ')}; the schema keeps \`type\` a string so a minor release can add a value, and clients should pass unknown values through. There is no push delivery (no callbacks or webhooks): the feed is pull only.
- **Vocabularies**: the allowed values of \`category\`, \`projectTypes\`, \`eligibilityType\` and \`specialPopulations\` are dataset-defined (lowercase slugs in the corpus vocabulary, checked at build time), not closed lists in this contract; served values always come from the corpus of the served revision. The \`project\` filter also accepts dataset-defined project aliases, each resolving to one canonical project type.
- **Program detail**: \`/api/programs/{city}/{programId}\` can answer 401, 403, 404, 429 and 503 (plus, like every route, ${REFUSED_BEFORE_ANY_ROUTE} and 500).
- **Health and readiness inner fields**: \`sourceVerification\`, \`factAccuracy\` and \`notes\` of DatasetHealth, and the \`strictAudit\`, \`dataHealth\`, \`commercialRelease\` (each with a \`green\` flag) and \`thresholds\` gates of DatasetReadiness, are fully specified in their schemas.
- **Report artifacts**: each is a frozen \`{artifact, version, completedAt, manifest, summary?, records}\` object (ReportArtifact); \`manifest\` and the record members are frozen per artifact.
- **Trial keys and the national layer**: a trial key is refused with 403 \`API_TIER_FORBIDDEN\`.
- **One URL per resource**: a path matches only as written here, in its case and without a trailing slash; \`/API/SAMPLE\`, \`/api/sample/\` and \`/Api/Programs/{city}\` are 404 \`NOT_FOUND\` like any unknown path, not redirects, so a cache never holds one resource under two keys (a city slug's canonical spelling is not knowable without the data, so no variant is redirected). Path parameters are percent-decoded before they are read.`;
}

/** The deprecation headers, as the versioning section names them. */
const DEPRECATION_SIGNALS = '`Deprecation` (RFC 9745: `@` and the epoch seconds it took effect), `Sunset` (RFC 8594 HTTP-date of retirement) and `Link` (`<uri>; rel="successor-version"`)';

/** Which operations the route table marks deprecated (each entry's `deprecation`), and how a deprecation is announced. */
function deprecatedOperations(routes: RouteTable): string {
  const deprecated = routes.filter((route) => route.deprecation !== undefined);
  if (deprecated.length === 0) {
    return `**No operation is deprecated today.** A deprecated operation would be announced at least 90 days before retirement and its responses would carry ${DEPRECATION_SIGNALS}; that operation's responses would then declare them.`;
  }
  const listed = deprecated.map((route) => `\`${openApiPathOf(route.path)}\` (sunset ${route.deprecation?.sunset.toISOString().slice(0, 10)})`).join(', ');
  return `**Deprecated operations:** ${listed}. A deprecated operation is announced at least 90 days before retirement; its responses carry and declare ${DEPRECATION_SIGNALS}, all but those answered before any operation is chosen (${REFUSED_BEFORE_ANY_ROUTE}).`;
}

/** The `info` object of the document of `routes`; `version` is the contract version also sent as `X-API-Version`. */
export function openApiInfo(routes: RouteTable): object {
  return {
    title: 'Home-Repair Assistance Dataset API',
    summary: 'Read-only JSON API of city-organized US home-repair assistance programs, for discovery and research.',
    version: API_VERSION,
    description: description(routes),
    contact: { name: 'home-repair-api support' },
    license: { name: 'Proprietary dataset license (licensed access under the applicable agreement)', identifier: 'LicenseRef-home-repair-api-dataset' },
  };
}

/** Tags grouping the operations, in display order. */
export const OPENAPI_TAGS = [
  { name: 'sample', description: 'The keyless evaluation sample.' },
  { name: 'dataset', description: 'Keyless dataset health, readiness and JSON Schemas.' },
  { name: 'reports', description: 'Keyless frozen report artifacts.' },
  { name: 'meta', description: 'This OpenAPI description, as JSON and as an HTML reference.' },
  { name: 'cities', description: 'Licensed city index and counts.' },
  { name: 'programs', description: 'Licensed program collections and records.' },
  { name: 'changes', description: 'The licensed pull change feed.' },
  { name: 'operations', description: 'Liveness and readiness probes for load balancers (keyless, unmetered).' },
] as const;
