/** Serializes a value through a published schema: only the schema's properties, in its property order. */

interface ObjectSchemaLike {
  properties?: Record<string, unknown>;
}

/**
 * Returns a copy of `value` holding only the properties `schema` declares, in declaration order, applied
 * recursively to nested object schemas. Corpus keys the contract does not publish never pass (spec 9.5).
 */
export function pickThroughSchema(schema: ObjectSchemaLike, value: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const [key, propertySchema] of Object.entries(schema.properties ?? {})) {
    const member = value[key];
    if (member === undefined) continue;
    const nested = propertySchema as ObjectSchemaLike;
    picked[key] = nested.properties && member !== null && typeof member === 'object' && !Array.isArray(member)
      ? pickThroughSchema(nested, member as Record<string, unknown>)
      : member;
  }
  return picked;
}

/** JSON text of `value` serialized through `schema` (see pickThroughSchema). */
export function serializeThroughSchema(schema: ObjectSchemaLike, value: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(pickThroughSchema(schema, value));
}
