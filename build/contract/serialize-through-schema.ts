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

type Serializer = (value: Readonly<Record<string, unknown>>) => string;

// One serializer per schema object, made on first use: the build serializes every record through the same
// few schemas, and walking a schema's entries and building the picked copy per record was a sixth of a
// build worker's time (BENCHMARKS.md, issue 25, goal 2, second round).
const serializers = new WeakMap<ObjectSchemaLike, Serializer>();

/**
 * JSON text of `value` serialized through `schema`: the text of JSON.stringify(pickThroughSchema(schema,
 * value)), written member by member instead of through the copy (the same text, checked by a property test).
 */
export function serializeThroughSchema(schema: ObjectSchemaLike, value: Readonly<Record<string, unknown>>): string {
  return serializerOf(schema)(value);
}

function serializerOf(schema: ObjectSchemaLike): Serializer {
  let serializer = serializers.get(schema);
  if (serializer === undefined) {
    serializer = compileSerializer(schema);
    serializers.set(schema, serializer);
  }
  return serializer;
}

function compileSerializer(schema: ObjectSchemaLike): Serializer {
  const keys = Object.keys(schema.properties ?? {});
  // JSON.stringify writes an object's integer-like keys first, whatever their order: a schema naming one
  // keeps the copy, so the text stays exactly what it would be.
  if (keys.some((key) => /^(?:0|[1-9]\d*)$/.test(key))) return (value) => JSON.stringify(pickThroughSchema(schema, value));
  const members = keys.map((key) => {
    const nested = (schema.properties![key] as ObjectSchemaLike).properties ? (schema.properties![key] as ObjectSchemaLike) : undefined;
    return { key, prefix: `${JSON.stringify(key)}:`, nested: nested === undefined ? undefined : serializerOf(nested) };
  });
  return (value) => {
    let text = '{';
    for (const { key, prefix, nested } of members) {
      const member = value[key];
      if (member === undefined) continue;
      const encoded = nested !== undefined && member !== null && typeof member === 'object' && !Array.isArray(member)
        ? nested(member as Record<string, unknown>)
        : (JSON.stringify(member) as string | undefined);
      // What JSON.stringify leaves out of an object (a function or symbol member) is left out here too.
      if (encoded === undefined) continue;
      text += text.length === 1 ? prefix + encoded : `,${prefix}${encoded}`;
    }
    return `${text}}`;
  };
}
