/**
 * The manifest's `publicBaseUrl` (issue 21, items 6 and 7): `hra validate` refuses every value `hra build`
 * cannot use, with the corpus error format, and refuses user information, a query and a fragment, which
 * the keyless `/api/sample` would otherwise publish.
 */
import * as assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { envelopeLinks } from '../../../build/contract/envelope-links.ts';
import { checkPublicBaseUrl } from '../../../build/corpus/check-public-base-url.ts';
import type { CorpusProblem } from '../../../build/corpus/corpus-problem.ts';
import { manifestSchema } from '../../../build/corpus/corpus-schemas.ts';
import { createAjv } from '../../../build/corpus/create-ajv.ts';
import { describeFailures } from '../../../build/corpus/schema-validator.ts';
import { MINI_CORPUS } from '../../support/start-test-gateway.ts';
import { runHra } from '../../support/run-hra.ts';
import { makeTempDir } from '../../support/temp-dir.ts';

const manifest = JSON.parse(readFileSync(join(MINI_CORPUS, 'manifest.json'), 'utf8')) as Record<string, unknown>;
const validateManifest = createAjv().compile(manifestSchema);

/** What `hra validate` says about the field: the manifest schema's failures on it, then the field's own check. */
function validateProblems(publicBaseUrl: string): string[] {
  const failures = describeFailures(validateManifest, { ...manifest, publicBaseUrl }).filter((failure) => failure.path === '$.publicBaseUrl');
  if (failures.length > 0) return failures.map((failure) => failure.message);
  const problems: CorpusProblem[] = [];
  checkPublicBaseUrl({ publicBaseUrl }, { file: 'manifest.json', lineOf: () => 1 }, problems);
  return problems.map((problem) => problem.message);
}

/** What the build does with the field, and what the served links then carry. */
function buildLinks(publicBaseUrl: string): URL[] {
  const links = envelopeLinks(publicBaseUrl);
  return [new URL(links.docs), new URL(links.openapi)];
}

const REFUSED = [
  'http://256.256.256.256', 'https://[::1]:99999', 'http://api.example.org:65536', 'http://1.2.3.4.5.6',
  'http://user:s3cret@api.example.org', 'http://user@api.example.org/v', 'http://@api.example.org', 'https://:pw@api.example.org',
  'https://api.example.org/#top', 'https://api.example.org#', 'https://api.example.org/?', 'https://api.example.org/?q=1',
  'ftp://api.example.org', 'api.example.org',
];
const ACCEPTED = ['https://api.example.org', 'https://api.example.org/', 'http://127.0.0.1:8080/v1', 'https://[::1]:65535/prefix/', 'https://xn--bcher-kva.example/a'];

describe('checkPublicBaseUrl', () => {
  for (const value of REFUSED) {
    it(`refuses ${value}`, () => assert.notDeepEqual(validateProblems(value), [], value));
  }
  for (const value of ACCEPTED) {
    it(`accepts ${value}`, () => assert.deepEqual(validateProblems(value), [], value));
  }

  it('never repeats a credential in its message', () => {
    assert.equal(validateProblems('http://user:s3cret@api.example.org').join(' ').includes('s3cret'), false);
  });

  it('property: every value validate accepts, the build accepts, and its links carry no credential, query or fragment', () => {
    const octet = fc.integer({ min: 0, max: 999 }).map(String);
    const host = fc.oneof(
      { weight: 4, arbitrary: fc.domain() },
      fc.tuple(octet, octet, octet, octet).map((parts) => parts.join('.')),
      fc.ipV6().map((address) => `[${address}]`),
      fc.string({ maxLength: 12 }),
    );
    const port = fc.option(fc.oneof(fc.integer({ min: 0, max: 99_999 }).map(String), fc.string({ maxLength: 6 })), { nil: undefined, freq: 2 });
    const userinfo = fc.option(fc.constantFrom('', 'user', 'user:pw', ':pw', 'a%40b'), { nil: undefined, freq: 4 });
    const tail = fc.option(fc.oneof({ weight: 3, arbitrary: fc.webPath() }, { weight: 1, arbitrary: fc.string({ maxLength: 20 }) }), { nil: undefined });
    const scheme = fc.oneof({ weight: 6, arbitrary: fc.constantFrom('http://', 'https://') }, { weight: 1, arbitrary: fc.constantFrom('HTTP://', 'http:/', 'http:', 'https:\\\\', 'ftp://', '') });
    const assembled = fc.tuple(scheme, userinfo, host, port, tail)
      .map(([prefix, user, name, number, path]) => `${prefix}${user === undefined ? '' : `${user}@`}${name}${number === undefined ? '' : `:${number}`}${path ?? ''}`);
    const value = fc.oneof({ weight: 4, arbitrary: assembled }, { weight: 1, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) }, { weight: 1, arbitrary: fc.string({ maxLength: 40 }) });
    let accepted = 0;
    fc.assert(fc.property(value, (candidate) => {
      if (validateProblems(candidate).length > 0) return;
      accepted += 1;
      for (const link of buildLinks(candidate)) {
        assert.match(link.protocol, /^https?:$/, candidate);
        assert.equal(link.username + link.password, '', candidate);
        assert.equal(link.search + link.hash, '', candidate);
      }
    }), { numRuns: 5_000 });
    assert.ok(accepted > 250, `${accepted} values were accepted: the property met valid ones too`);
  });
});

describe('hra validate and hra build on a publicBaseUrl', () => {
  let scratch: string;
  before(() => {
    scratch = makeTempDir('hra-base-url-');
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  for (const [index, value] of ['http://256.256.256.256', 'https://[::1]:99999', 'http://user:s3cret@api.example.org'].entries()) {
    it(`both exit 1 on ${value}, naming manifest.json and the field, and build publishes nothing`, () => {
      const corpus = join(scratch, `corpus-${index}`);
      cpSync(MINI_CORPUS, corpus, { recursive: true });
      writeFileSync(join(corpus, 'manifest.json'), `${JSON.stringify({ ...manifest, publicBaseUrl: value }, null, 2)}\n`);
      const out = join(scratch, `out-${index}`);
      for (const args of [['validate', '--corpus', corpus], ['build', '--corpus', corpus, '--out', out]]) {
        const run = runHra(args);
        assert.equal(run.status, 1, `${args[0]}: ${run.stderr}`);
        assert.match(run.stderr, /manifest\.json:\d+ \$\.publicBaseUrl: /, `${args[0]}: ${run.stderr}`);
        assert.doesNotMatch(run.stderr, /unexpected failure|s3cret/, `${args[0]}: ${run.stderr}`);
      }
      assert.throws(() => readFileSync(join(out, 'current.sqlite')), 'no snapshot published');
    });
  }
});
