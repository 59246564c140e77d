/**
 * The program-list envelope's optional `docs` and `openapi` members (spec 4.3): absolute URIs of the
 * deployment's HTML reference (`GET /docs`) and OpenAPI document (`GET /openapi.json`). A snapshot's bytes
 * are fixed at build time, so the base they hang from is a build input (the corpus manifest's
 * `publicBaseUrl`), bound by the revision like every other, never read from a request's Host.
 */
import type { ProgramList } from './program-list-schema.ts';

/** The two links every envelope of a build carries, or none when the dataset names no public base URL. */
export type EnvelopeLinks = Required<Pick<ProgramList, 'docs' | 'openapi'>>;

/** The links under a public base URL (`https://api.example.org` or `.../prefix`, with or without a final `/`). */
export function envelopeLinks(publicBaseUrl: string): EnvelopeLinks {
  const base = publicBaseUrl.endsWith('/') ? publicBaseUrl : `${publicBaseUrl}/`;
  return { docs: new URL('docs', base).href, openapi: new URL('openapi.json', base).href };
}

/**
 * Why a manifest's `publicBaseUrl` cannot be published, or undefined when it can. It runs `envelopeLinks`
 * itself, so validation and the build parse the value with the one parser (WHATWG `URL`): a value the
 * build would fail on (`http://256.256.256.256`, a port past 65535) is refused here instead. The links
 * are served keyless by `/api/sample`, so user information (a credential) is refused, and so are a query
 * and a fragment, which would sit before the links' paths or be dropped by them.
 */
export function publicBaseUrlProblem(publicBaseUrl: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(publicBaseUrl);
    envelopeLinks(publicBaseUrl);
  } catch {
    return `${JSON.stringify(publicBaseUrl)} is not a valid URL`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `${JSON.stringify(publicBaseUrl)} must be an http or https URL`;
  // The parser drops an empty `@`, `?` or `#` (`http://@host`, `https://host/#`): the raw text decides.
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:[\\/]*([^\\/?#]*)/.exec(publicBaseUrl)?.[1] ?? '';
  if (parsed.username !== '' || parsed.password !== '' || authority.includes('@')) return 'must not carry user information (a user name or password before `@`): envelopes publish it';
  if (publicBaseUrl.includes('?')) return `${JSON.stringify(publicBaseUrl)} must not carry a query`;
  if (publicBaseUrl.includes('#')) return `${JSON.stringify(publicBaseUrl)} must not carry a fragment`;
  return undefined;
}
