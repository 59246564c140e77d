/** Converts an ajv instancePath (`/a/0/b c`) into the JSON path maintainers read (`$.a[0]["b c"]`). */
export function toJsonPath(instancePath: string): string {
  return formatJsonPath(fromInstancePath(instancePath));
}

/**
 * Renders keys and indexes as the JSON path maintainers read. A key that is not an identifier is quoted as
 * a JSON string, so even a key holding a lone surrogate prints as readable, well-formed text (`$["\ud800"]`).
 */
export function formatJsonPath(segments: ReadonlyArray<string | number>): string {
  return segments.reduce<string>((path, key) => {
    if (typeof key === 'number') return `${path}[${key}]`;
    if (/^[A-Za-z_$][\w$]*$/.test(key)) return `${path}.${key}`;
    return `${path}[${JSON.stringify(key)}]`;
  }, '$');
}

/** Splits a JSON path back into the keys jsonc-parser's findNodeAtLocation expects. */
export function fromInstancePath(instancePath: string): Array<string | number> {
  if (instancePath === '') return [];
  return instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((key) => (/^\d+$/.test(key) ? Number(key) : key));
}
