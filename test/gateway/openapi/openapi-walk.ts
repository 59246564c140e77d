/** Helpers for reading the built OpenAPI document in tests. */

/** The parts of the document the tests read. */
export interface OpenApiDocument {
  openapi: string;
  info: { version: string; description: string };
  jsonSchemaDialect: string;
  security: unknown;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, unknown>;
    securitySchemes: Record<string, { description?: string }>;
    parameters: Record<string, { schema?: unknown }>;
    responses: Record<string, unknown>;
    headers: Record<string, { required?: boolean }>;
  };
}

/** One operation. */
export interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  security?: unknown;
  parameters?: Array<{ $ref: string }>;
  responses: Record<string, unknown>;
}

/** The GET operation of `path`; fails when it is not documented. */
export function operationOf(doc: OpenApiDocument, path: string): Operation {
  const operation = doc.paths[path]?.get;
  if (!operation) throw new Error(`no GET ${path} in the document`);
  return operation;
}

/** The documented path template a concrete path is served under (literal paths win over templates), if any. */
export function templateOf(doc: OpenApiDocument, path: string): string | undefined {
  const pathname = path.split('?')[0] ?? path;
  if (pathname in doc.paths) return pathname;
  return Object.keys(doc.paths).find((candidate) => new RegExp(`^${candidate.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(pathname));
}

/** Follows a local `$ref` (once, then again while the target is itself a `$ref`). */
export function resolveRef(doc: OpenApiDocument, node: unknown): unknown {
  let current = node;
  while (current !== null && typeof current === 'object' && '$ref' in current) {
    const pointer = String((current as { $ref: unknown }).$ref);
    if (!pointer.startsWith('#/')) throw new Error(`non-local $ref ${pointer}`);
    current = pointer.slice(2).split('/').reduce<unknown>(
      (target, segment) => (target as Record<string, unknown> | undefined)?.[segment.replaceAll('~1', '/').replaceAll('~0', '~')],
      doc,
    );
  }
  return current;
}

/** The `code` values an error response's schema narrows `code` to. */
export function responseCodes(doc: OpenApiDocument, response: unknown): string[] {
  const codes: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      const code = (record.properties as Record<string, { enum?: string[] }> | undefined)?.code;
      if (code?.enum) codes.push(...code.enum);
      // Component schemas are not followed: each response narrows `code` to the values it can carry.
      for (const key of ['allOf', 'anyOf', 'oneOf']) walk(record[key]);
    }
  };
  const resolved = resolveRef(doc, response) as { content?: Record<string, { schema?: unknown }> };
  walk(resolved.content?.['application/json']?.schema);
  return [...new Set(codes)];
}

/** Every error code the document names in a response schema -> the statuses it appears under. */
export function collectErrorCodes(doc: OpenApiDocument): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const item of Object.values(doc.paths)) {
    for (const operation of Object.values(item)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        for (const code of responseCodes(doc, response)) found.set(code, (found.get(code) ?? new Set()).add(status));
      }
    }
  }
  return found;
}
