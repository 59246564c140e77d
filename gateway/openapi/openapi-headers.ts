/**
 * Response header components of the OpenAPI description (spec 4.1, 4.4, 9.4) and how responses pick them: the
 * header vocabulary, below the route table that names them (header-components.ts fits them to a table).
 */
import { REVISION_PATTERN } from '../../build/contract/api-version.ts';
import { CACHE_CONTROL } from '../vocabulary/success-caching.ts';

const nonNegative = { type: 'integer', minimum: 0 } as const;

/** What the HTTP server and the request guards refuse before any route is chosen: no route's headers reach these. */
export const REFUSED_BEFORE_ANY_ROUTE = '400 `MALFORMED_REQUEST` or `MALFORMED_URL`, 405, 408, 414, 431';

/** Of those, what is answered unmetered: all but `MALFORMED_URL`, which is metered per client address. */
const UNMETERED_BEFORE_ANY_ROUTE = '400 `MALFORMED_REQUEST`, 405, 408, 414, 431';

/** Where the deprecation headers are sent, and where not: they are the operation's, so nothing refused before one is chosen has them. */
const DEPRECATION_SCOPE = `Sent on every response of a deprecated operation but those answered before any operation is chosen (${REFUSED_BEFORE_ANY_ROUTE}).`;

/** How the tag of each content coding is formed and revalidates (gateway/encoding/coding-etag.ts). */
export const ETAG_CODINGS = ' Each content coding is its own representation with its own tag: the identity tag with `-br` or `-gzip` inside the quotes. `If-None-Match` (weak comparison, so `W/` is ignored; any tag of a list; or `*`) revalidates only the representation the request selects: the coding a 200 would send now. A tag of another coding does not match, and the 200 sends the selected coding\'s bytes and tag; the 304 carries the selected coding\'s tag.';

/** `components.headers`: every response header the gateway sends, under its own name or a variant of it. */
export const openApiHeaders = {
  'X-API-Version': {
    description: 'Semantic version of the HTTP contract (also `info.version`). Sent on every response.',
    required: true,
    schema: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+$' },
  },
  'X-Dataset-Revision': {
    description: 'The effective served generation (`gm1-` digest of contract, corpus, evidence, corrections, enrichment and scope policy). On successful and 304 responses only; errors omit it.',
    required: true,
    schema: { type: 'string', pattern: REVISION_PATTERN },
  },
  'X-Request-ID': {
    description: 'The caller\'s `X-Request-ID` when it is safe (8-80 characters, first a letter or digit, then letters, digits, `.`, `_`, `:`, `-`, and not shaped like an API key: one starting `hra_t_`, `hra_n_` or `hra_c_` in any case is never adopted, so a key sent there by mistake reaches neither the logs nor the response), else a generated opaque ID. Sent on every response.',
    required: true,
    schema: { type: 'string', minLength: 8, maxLength: 80 },
  },
  'X-RateLimit-Limit': {
    description: `Requests allowed in the active window (the window closest to exhaustion). Omitted when a keyless route is served while rate-limit storage is unreachable, on the 503 of an authentication or rate-limit storage outage, and on what is refused unmetered before a route is chosen (${UNMETERED_BEFORE_ANY_ROUTE}; a 400 \`MALFORMED_URL\` is metered per client address and carries them).`,
    schema: nonNegative,
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the active window. Present whenever `X-RateLimit-Limit` is.',
    schema: nonNegative,
  },
  'X-RateLimit-Reset': {
    description: 'UTC epoch seconds at which the active window resets. Present whenever `X-RateLimit-Limit` is.',
    schema: nonNegative,
  },
  RateLimit: {
    description: 'IETF RateLimit field for the reported window, e.g. `"minute";r=59;t=41` (remaining, seconds to reset). Agrees with the X-RateLimit-* headers and is present whenever they are.',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description: 'IETF RateLimit-Policy field listing every window that applies, e.g. `"minute";q=60;w=60, "day";q=2000;w=86400`. Present whenever the X-RateLimit-* headers are.',
    schema: { type: 'string' },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying. Sent on 429, and on 503 when the server can state a delay (authentication or rate-limit storage outages, an unavailable snapshot: `DATASET_UNAVAILABLE`). Back off exponentially with jitter regardless.',
    schema: { type: 'integer', minimum: 1 },
  },
  ETag: {
    // Names the allowlist in the document of a route table: see header-components.ts.
    description: 'Strong entity tag of the document. Only on the ETag allowlist: the routes whose caching policy is `cacheable`; send it back in `If-None-Match` to receive 304.' + ETAG_CODINGS,
    required: true,
    schema: { type: 'string', pattern: '^"[A-Za-z0-9_-]+"$' },
  },
  'Cache-Control-Cacheable': {
    description: `\`Cache-Control\` of an ETag-allowlisted public document: \`${CACHE_CONTROL.cacheable}\`.`,
    schema: { const: CACHE_CONTROL.cacheable },
  },
  'Cache-Control-Revalidate': {
    description: `\`Cache-Control\` of dataset health and readiness: \`${CACHE_CONTROL.revalidate}\` (they are computed per request and carry no ETag).`,
    schema: { const: CACHE_CONTROL.revalidate },
  },
  'Cache-Control-Report': {
    description: `\`Cache-Control\` of a frozen report artifact: \`${CACHE_CONTROL.report}\`.`,
    schema: { const: CACHE_CONTROL.report },
  },
  'Cache-Control-Licensed': {
    description: `\`Cache-Control\` of licensed responses: \`${CACHE_CONTROL.licensed}\`. Never place licensed responses in a shared cache.`,
    required: true,
    schema: { const: CACHE_CONTROL.licensed },
  },
  'Cache-Control-Error': {
    description: '`Cache-Control` of every error response: `no-store`.',
    required: true,
    schema: { const: 'no-store' },
  },
  Vary: {
    description: 'Licensed responses vary on the caller\'s key: `X-Api-Key`; a body of 1 KiB or more also on `Accept-Encoding` (`X-Api-Key, Accept-Encoding`), since it may be sent compressed.',
    required: true,
    schema: { enum: ['X-Api-Key', 'X-Api-Key, Accept-Encoding'] },
  },
  'Vary-Encoding': {
    description: '`Vary: Accept-Encoding` on a keyless response whose body is 1 KiB or more (and on the 304 of such a document): its bytes depend on the content coding negotiated.',
    schema: { const: 'Accept-Encoding' },
  },
  'Content-Encoding': {
    description: 'The content coding of the body, negotiated from `Accept-Encoding` (q-values honoured; `br` preferred when weighed alike with `gzip` in that order): `br` or `gzip` for a body of 1 KiB or more once its compressed form is stored (the first request for a body after a new revision may get it uncompressed). Absent: the body is sent as it is. `Content-Length` counts the bytes sent. Compressed forms are derived in memory and never part of the revision.',
    schema: { enum: ['br', 'gzip'] },
  },
  'Vary-Error': {
    description: '`Vary: X-Api-Key` on an error a licensed route answers after accepting the key: a parameter 400, a 404, a 503 `DATASET_UNAVAILABLE`, a 500. Refusals before that (401, 403, 429, a trial key\'s 400, an authentication or rate-limit storage 503) and 400 `MALFORMED_REQUEST` do not carry it.',
    schema: { const: 'X-Api-Key' },
  },
  'Content-Security-Policy': {
    description: 'Of the HTML reference at `/docs`: nothing may load, only the page\'s own two scripts run (by hash, no `unsafe-eval`); styles need `\'unsafe-inline\'` because Redoc writes them at run time.',
    required: true,
    schema: { type: 'string', pattern: "^default-src 'none'; " },
  },
  'X-Content-Type-Options': {
    description: '`nosniff`, on every response, whatever its status (also on the admin port\'s `/metrics`): a body is what its `Content-Type` says, never sniffed.',
    required: true,
    schema: { const: 'nosniff' },
  },
  Allow: {
    description: 'The methods the read-only API accepts: `GET, HEAD`.',
    required: true,
    schema: { const: 'GET, HEAD' },
  },
  // The deprecation signals (spec 9.4): components only of a document whose table deprecates a route.
  Deprecation: {
    description: `RFC 9745: this operation is deprecated; \`@\` and the UTC epoch seconds at which the deprecation took effect. ${DEPRECATION_SCOPE}`,
    schema: { type: 'string', pattern: '^@\\d+$' },
  },
  Sunset: {
    description: `RFC 8594: the HTTP-date at which this operation retires, at least 90 days after it was announced. ${DEPRECATION_SCOPE}`,
    schema: { type: 'string', pattern: '^[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT$' },
  },
  Link: {
    description: `The replacement operation: \`<uri>; rel="successor-version"\`. ${DEPRECATION_SCOPE}`,
    schema: { type: 'string', pattern: '^<[^>]+>; rel="successor-version"$' },
  },
} as const;

/** The header components of a deprecated operation's responses, in the order they are sent. */
export const DEPRECATION_HEADERS = ['Deprecation', 'Sunset', 'Link'] as const;

/** A header component's name. */
export type HeaderComponent = keyof typeof openApiHeaders;

/** A `headers` map of a response, keyed by the wire name, each a `$ref` to its component. */
export type HeaderRefs = Record<string, { $ref: string }>;

/** Headers documented in variants (one component per meaning); each variant is sent under the base name. */
const VARIANT_BASES = ['Cache-Control', 'Vary'] as const;

/** Wire name of a component: `Cache-Control-Licensed` is sent as `Cache-Control`, `Vary-Error` as `Vary`. */
function wireName(component: HeaderComponent): string {
  return VARIANT_BASES.find((base) => component.startsWith(`${base}-`)) ?? component;
}

/** Builds a response's `headers` map from component names. */
export function headerRefs(...components: readonly HeaderComponent[]): HeaderRefs {
  return Object.fromEntries(components.map((component) => [wireName(component), { $ref: `#/components/headers/${component}` }]));
}

/** The rate-limit headers, as a group. */
export const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit', 'RateLimit-Policy'] as const;
