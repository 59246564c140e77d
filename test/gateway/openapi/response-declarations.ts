/**
 * Live responses held against what the OpenAPI document declares for their operation and status: the
 * status is declared, the error `code` is among that status's codes, every header sent is declared there
 * and every required one is sent; and, over all the responses checked, every header declared for an
 * (operation, status) that was seen was sent by at least one of them, so no declaration is a promise
 * nothing keeps.
 */
import * as assert from 'node:assert/strict';
import { operationOf, resolveRef, responseCodes, templateOf, type OpenApiDocument } from './openapi-walk.ts';
import type { ApiErrorBody } from '../../../build/contract/error-schema.ts';

/** Headers of the transport, not of the contract: framing and connection management. */
const TRANSPORT_HEADERS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

/** What a check needs of a response, however it was read (fetch or a raw node:http request). */
export interface LiveResponse {
  status: number;
  /** Lowercase header names to values. */
  headers: ReadonlyMap<string, string>;
  /** The error body's `code`, for an error with a body. */
  code?: string;
}

/** A fetch Response's status and headers, with the `code` of its already-parsed body. */
export function liveResponse(response: Response, body?: unknown): LiveResponse {
  const code = (body as ApiErrorBody | undefined)?.code;
  return { status: response.status, headers: new Map(response.headers), code: typeof code === 'string' ? code : undefined };
}

/** Collects what each (operation, status) sent while checking each response against its declaration. */
export class ResponseDeclarations {
  readonly #doc: OpenApiDocument;
  /** `template status` -> names of the headers sent by the responses seen. */
  readonly #sent = new Map<string, Set<string>>();

  constructor(doc: OpenApiDocument) {
    this.#doc = doc;
  }

  /**
   * Checks one response to a request for `path` (any method: the API declares GET operations only, and
   * their 405 covers every other method). Returns false for a path the document does not serve.
   */
  check(path: string, response: LiveResponse, where: string): boolean {
    const template = templateOf(this.#doc, path);
    if (template === undefined) return false;
    const status = String(response.status);
    // Recorded first, so the coverage check also reports on responses that failed a check below.
    const key = `${template} ${status}`;
    const sent = this.#sent.get(key) ?? new Set<string>();
    for (const name of response.headers.keys()) sent.add(name);
    this.#sent.set(key, sent);
    const declared = operationOf(this.#doc, template).responses[status];
    assert.ok(declared, `${where}: status ${status} is not declared for GET ${template}`);
    if (response.status >= 400) {
      assert.ok(response.code !== undefined && responseCodes(this.#doc, declared).includes(response.code), `${where}: code ${response.code} is not declared for ${status} of GET ${template}`);
    }
    const headers = this.declaredHeaders(template, status);
    for (const name of response.headers.keys()) {
      if (!TRANSPORT_HEADERS.has(name)) assert.ok(headers.has(name), `${where}: header ${name} is sent but not declared for ${status} of GET ${template}`);
    }
    for (const [name, required] of headers) {
      if (required) assert.ok(response.headers.has(name), `${where}: required header ${name} of ${status} of GET ${template} was not sent`);
    }
    return true;
  }

  /** Declared headers of a response, by lowercase name, each with whether it is required. */
  declaredHeaders(template: string, status: string): Map<string, boolean> {
    const declared = resolveRef(this.#doc, operationOf(this.#doc, template).responses[status]) as { headers?: Record<string, unknown> };
    return new Map(Object.entries(declared.headers ?? {}).map(([name, ref]) => [name.toLowerCase(), (resolveRef(this.#doc, ref) as { required?: boolean }).required === true]));
  }

  /** The (operation, status) pairs seen, as `template status`. */
  seen(): string[] {
    return [...this.#sent.keys()];
  }

  /**
   * `template status: header` for each header declared on a seen (operation, status) that no response
   * sent, but those `excused` names for that pair (conditions a test cannot bring about).
   */
  unsent(excused: ReadonlyMap<string, readonly string[]> = new Map()): string[] {
    const missing: string[] = [];
    for (const [key, sent] of this.#sent) {
      const [template = '', status = ''] = key.split(' ');
      // A status the document does not declare is reported by check() already.
      if (operationOf(this.#doc, template).responses[status] === undefined) continue;
      for (const name of this.declaredHeaders(template, status).keys()) {
        if (!sent.has(name) && !(excused.get(key) ?? []).includes(name)) missing.push(`${key}: ${name}`);
      }
    }
    return missing.sort();
  }
}
