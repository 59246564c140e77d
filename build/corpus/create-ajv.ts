/** The one ajv configuration every corpus and contract schema is compiled with. */
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats ships CommonJS; under nodenext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** Creates the ajv instance every corpus and contract schema is compiled with; `source` keeps the code for standalone output. */
export function createAjv({ source = false }: { source?: boolean } = {}): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true, code: { source } });
  addFormats(ajv);
  return ajv;
}
