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
