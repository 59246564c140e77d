import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import type { ValidateFunction } from 'ajv';
import { CORPUS_VALIDATED_SCHEMAS, corpusValidator, type CorpusSchemaName } from '../../../build/corpus/corpus-validators.ts';
import { generateStandaloneValidators } from '../../../build/corpus/generate-standalone-validators.ts';
import { createAjv } from '../../../build/corpus/create-ajv.ts';

const corpus = new URL('../../../corpus/', import.meta.url);
const lines = (relative: string) => readFileSync(new URL(relative, corpus), 'utf8').split('\n').filter((line) => line.trim() !== '').slice(0, 20).map((line) => JSON.parse(line) as unknown);
const json = (relative: string) => JSON.parse(readFileSync(new URL(relative, corpus), 'utf8')) as unknown;

// Real values of every corpus file the repository holds; a schema without a file here is probed by the mutants alone.
const SAMPLES: Record<CorpusSchemaName, unknown[]> = {
  manifest: [json('manifest.json')],
  vocabularies: [json('vocabularies.json')],
  cityRow: lines('cities.ndjson'),
  correction: lines('corrections.ndjson'),
  programRow: [...lines('national.ndjson'), ...readdirSync(new URL('programs/', corpus)).slice(0, 3).flatMap((name) => lines(`programs/${name}`))],
  adjacentRule: lines('policy/adjacent-scope.ndjson'),
  quarantineEntry: lines('policy/quarantine.ndjson'),
  linkCheck: lines('evidence/link-checks.ndjson'),
  sourceReview: lines('evidence/source-reviews.ndjson'),
  quoteCheck: [],
  changeEventRow: lines('changes.ndjson'),
  reportArtifact: readdirSync(new URL('reports/', corpus)).map((name) => json(`reports/${name}`)),
};

/** Each sample, and copies with one field missing, retyped or added: valid and invalid values alike. */
function probes(samples: readonly unknown[]): unknown[] {
  const out: unknown[] = [null, 0, 'x', [], {}, { unknown: true }, ...samples];
  for (const sample of samples.slice(0, 3)) {
    if (sample === null || typeof sample !== 'object' || Array.isArray(sample)) continue;
    for (const key of Object.keys(sample)) {
      const { [key]: _dropped, ...without } = sample as Record<string, unknown>;
      out.push(without);
      for (const wrong of [null, 12345, 'not-a-value', [], {}]) out.push({ ...sample, [key]: wrong });
    }
    out.push({ ...sample, notAField: 1 });
  }
  return out;
}

function loadGenerated(): Record<string, ValidateFunction> {
  const module = { exports: {} as Record<string, ValidateFunction> };
  // The generated CommonJS requires ajv's runtime and ajv-formats, resolved from here as from dist/js.
  new Function('module', 'exports', 'require', generateStandaloneValidators())(module, module.exports, createRequire(import.meta.url));
  return module.exports;
}

describe('generateStandaloneValidators', () => {
  const generated = loadGenerated();

  it('exports a validator for every corpus schema, and nothing else', () => {
    assert.deepEqual(Object.keys(generated).sort(), Object.keys(CORPUS_VALIDATED_SCHEMAS).sort());
  });

  it('accepts and refuses what ajv compiling the same schema does, with the same errors', () => {
    const ajv = createAjv();
    let refused = 0;
    for (const name of Object.keys(CORPUS_VALIDATED_SCHEMAS) as CorpusSchemaName[]) {
      const compiled = ajv.compile(CORPUS_VALIDATED_SCHEMAS[name]);
      const standalone = generated[name]!;
      for (const value of probes(SAMPLES[name])) {
        const expected = compiled(value);
        assert.equal(standalone(value), expected, `${name}: ${JSON.stringify(value).slice(0, 200)}`);
        assert.deepEqual(standalone.errors ?? null, compiled.errors ?? null, `${name}: ${JSON.stringify(value).slice(0, 200)}`);
        if (!expected) refused += 1;
      }
      for (const sample of SAMPLES[name]) assert.ok(standalone(sample), `${name}: the repository's own corpus value is refused`);
    }
    assert.ok(refused > 100, `only ${refused} probes were refused: the mutants do not exercise the errors`);
  });
});

describe('corpusValidator', () => {
  it('makes each validator once per thread', () => {
    assert.equal(corpusValidator('programRow'), corpusValidator('programRow'));
    assert.notEqual(corpusValidator('programRow'), corpusValidator('cityRow'));
  });
});
