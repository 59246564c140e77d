/**
 * The import rules of .dependency-cruiser.mjs (STYLE 1, 27; issue 24 item 5): no cycle in gateway/ or build/
 * (type-only imports count), the gateway reads only build/contract/ and build/snapshot/, the contract is
 * self-contained, and starting the gateway never loads the corpus loader or the corpus's ajv schemas.
 * Checked on the repository, and on small trees that break each rule, so a rule that stopped matching
 * (a renamed folder, a parser that missed a kind of import) fails here instead of passing silently.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { makeTempDir } from './support/temp-dir.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** What is cruised: the two trees the rules govern, and the CLI entry that starts the gateway. */
const CRUISED = ['gateway', 'build', 'scripts/commands/serve-command.ts'];
/** The rules and options as `npx depcruise` reads them: validation on, the rule set included. */
const OPTIONS = await extractDepcruiseOptions(join(ROOT, '.dependency-cruiser.mjs'));

/** Cruises `CRUISED` (those present) under `baseDir` with the repository's rules. */
async function cruiseUnder(baseDir: string, paths = CRUISED): Promise<ICruiseResult> {
  const reported = await cruise(paths, { ...OPTIONS, baseDir });
  if (typeof reported.output === 'string') throw new Error('dependency-cruiser answered text where a result was asked for');
  return reported.output;
}

/** One line per violation: the rule and the edge (or the cycle) that breaks it. */
function violations(result: ICruiseResult): string[] {
  return result.summary.violations.map((violation) => {
    const path = violation.cycle ? [violation.from, ...violation.cycle.map((step) => step.name)] : [violation.from, violation.to];
    return `${violation.rule.name}: ${path.join(' -> ')}`;
  });
}

describe('import rules (.dependency-cruiser.mjs)', () => {
  it('the repository breaks none of them', async () => {
    assert.deepEqual(violations(await cruiseUnder(ROOT)), []);
  });

  it('follows type-only imports, and walks the gateway from its entry into the contract', async () => {
    const result = await cruiseUnder(ROOT);
    const entry = result.modules.find((module) => module.source === 'gateway/routes/route-entry.ts');
    const typeOnly = entry?.dependencies.find((dependency) => dependency.resolved === 'gateway/routes/route-dependencies.ts');
    assert.ok(typeOnly?.dependencyTypes.includes('type-only'), 'a type-only import must be an edge of the graph');
    const sources = new Set(result.modules.map((module) => module.source));
    assert.ok(sources.has('gateway/app.ts') && sources.has('build/contract/api-version.ts'), 'the cruise must reach the app factory and the contract');
  });

  describe('each rule fails a tree that breaks it', () => {
    const fixtures = makeTempDir('hra-dependency-rules-');
    after(() => rmSync(fixtures, { recursive: true, force: true }));

    /** Writes `files` (path -> source) into a fresh tree and cruises it. */
    async function cruiseTree(name: string, files: Record<string, string>): Promise<string[]> {
      const base = join(fixtures, name);
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(base, path)), { recursive: true });
        writeFileSync(join(base, path), text);
      }
      const roots = ['gateway', 'build', 'scripts'].filter((root) => Object.keys(files).some((path) => path.startsWith(`${root}/`)));
      return violations(await cruiseUnder(base, roots));
    }

    const cases: { name: string; files: Record<string, string>; expected: string[] }[] = [
      {
        name: 'a cycle of type-only imports in gateway/',
        files: {
          'gateway/route-entry.ts': "import type { B } from './caching.ts';\nexport type A = B;\n",
          'gateway/caching.ts': "import type { A } from './route-entry.ts';\nexport type B = string;\nexport type C = A;\n",
        },
        expected: ['no-cycle: gateway/caching.ts -> gateway/route-entry.ts -> gateway/caching.ts'],
      },
      {
        name: 'a cycle in build/',
        files: {
          'build/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
          'build/b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
        },
        expected: ['no-cycle: build/a.ts -> build/b.ts -> build/a.ts'],
      },
      {
        name: 'the gateway importing build internals (a multi-line import)',
        files: {
          'gateway/app.ts': "import {\n  revise,\n} from '../build/revision/revise.ts';\nexport const app = revise;\n",
          'build/revision/revise.ts': 'export const revise = 1;\n',
        },
        expected: ['gateway-reads-only-the-contract-from-build: gateway/app.ts -> build/revision/revise.ts'],
      },
      {
        name: 'the contract importing the rest of the build (a re-export)',
        files: {
          'build/contract/version.ts': "export { layout } from '../snapshot/layout.ts';\n",
          'build/snapshot/layout.ts': 'export const layout = 1;\n',
        },
        expected: ['contract-self-contained: build/contract/version.ts -> build/snapshot/layout.ts'],
      },
      {
        name: 'the archive importing the gateway',
        files: {
          'build/archive/open-archive-writer.ts': "import { log } from '../../gateway/log.ts';\nexport const open = log;\n",
          'gateway/log.ts': 'export const log = 1;\n',
        },
        expected: ['archive-imports-no-gateway: build/archive/open-archive-writer.ts -> gateway/log.ts'],
      },
      {
        name: 'the gateway entry reaching the corpus loader through the snapshot (a dynamic import)',
        files: {
          'gateway/start-gateway.ts': "export const start = () => import('../build/snapshot/open.ts');\n",
          'build/snapshot/open.ts': "import { loadCorpus } from '../corpus/load-corpus.ts';\nexport const open = loadCorpus;\n",
          'build/corpus/load-corpus.ts': 'export const loadCorpus = 1;\n',
        },
        expected: ['gateway-start-loads-no-corpus-loader: gateway/start-gateway.ts -> build/corpus/load-corpus.ts'],
      },
      {
        name: 'nothing, when the gateway reads only the contract and the snapshot',
        files: {
          'gateway/start-gateway.ts': "import { version } from '../build/contract/version.ts';\nimport { open } from '../build/snapshot/open.ts';\nexport const start = [version, open];\n",
          'build/contract/version.ts': 'export const version = 1;\n',
          'build/snapshot/open.ts': "import { version } from '../contract/version.ts';\nexport const open = version;\n",
        },
        expected: [],
      },
    ];
    for (const { name, files, expected } of cases) {
      it(name, async () => {
        assert.deepEqual((await cruiseTree(name.replace(/\W+/g, '-'), files)).sort(), expected);
      });
    }
  });
});
