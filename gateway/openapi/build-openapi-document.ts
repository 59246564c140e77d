/** Assembles the OpenAPI 3.1 description served at `/openapi.json` (spec 1.3, 9.1). */
import { JSON_SCHEMA_DIALECT } from '../../build/contract/api-version.ts';
import { headerComponents } from './header-components.ts';
import { OPENAPI_TAGS, openApiInfo } from './openapi-info.ts';
import { openApiParameters } from './openapi-parameters.ts';
import { openApiPaths } from './openapi-paths.ts';
import { openApiResponses } from './openapi-responses.ts';
import { openApiSchemas } from './openapi-schemas.ts';
import { ROUTE_TABLE } from '../routes/route-table.ts';
import type { RouteTable } from '../routes/route-entry.ts';

/**
 * The shared responses some operation of `paths` refers to, in their order: all of them for the route table;
 * fewer when every operation using one is deprecated and has it written out (openapi/deprecated-responses.ts).
 */
function reachedResponses(paths: Record<string, object>): Partial<typeof openApiResponses> {
  const text = JSON.stringify(paths);
  return Object.fromEntries(Object.entries(openApiResponses).filter(([name]) => text.includes(`"#/components/responses/${name}"`)));
}

/**
 * Builds the document of `routes` (the gateway's table unless told). Pure and deterministic: same code,
 * same document. Component schemas are the contract's own objects (STYLE 8), so serialize the result
 * rather than mutating it.
 */
export function buildOpenApiDocument(routes: RouteTable = ROUTE_TABLE): object {
  const paths = openApiPaths(routes);
  return {
    openapi: '3.1.0',
    info: openApiInfo(routes),
    jsonSchemaDialect: JSON_SCHEMA_DIALECT,
    // Relative: the document describes whichever host serves it; no host name is invented here.
    servers: [{ url: '/', description: 'The host serving this document.' }],
    // Relative too (OpenAPI 3.1 resolves it against this document's location): the same host's HTML page.
    externalDocs: { description: 'This description as a readable HTML reference, outside the JSON contract.', url: '/docs' },
    security: [{ ApiKeyAuth: [] }],
    tags: OPENAPI_TAGS,
    paths,
    components: {
      securitySchemes: {
        ApiKeyAuth: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Api-Key',
          description: 'Licensed API key. Keep it server-side; never embed it in browser code or URLs. Keyless operations declare `security: []`.',
        },
      },
      schemas: openApiSchemas,
      parameters: openApiParameters,
      headers: headerComponents(routes),
      responses: reachedResponses(paths),
    },
  };
}
