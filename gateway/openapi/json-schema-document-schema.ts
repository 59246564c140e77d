/** The shape of the two served JSON Schema documents (spec 2.5), published as an OpenAPI component. */

/**
 * A JSON Schema document as the program-schema and export-schema routes return it: the six
 * required members, an optional boolean `additionalProperties`, and any other keyword.
 */
export const jsonSchemaDocumentSchema = {
  type: 'object',
  additionalProperties: true,
  required: ['$schema', '$id', 'title', 'type', 'properties', 'required'],
  properties: {
    $schema: { type: 'string', format: 'uri' },
    $id: { type: 'string', format: 'uri' },
    title: { type: 'string' },
    description: { type: 'string' },
    type: { const: 'object' },
    properties: { type: 'object', additionalProperties: { type: ['object', 'boolean'] } },
    required: { type: 'array', items: { type: 'string' }, uniqueItems: true },
    additionalProperties: { type: 'boolean' },
  },
} as const;
