/**
 * The build/gateway boundary (STYLE 1, issue 13 item 4): the gateway may import only the shared contract
 * (`build/contract/`) and the snapshot format with its read-side checks (`build/snapshot/`), and starting
 * it must not load the corpus loader or the corpus's ajv schemas. Imports are read with the TypeScript
 * parser, so multi-line, re-exported and dynamic imports all count.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const ALLOWED_BUILD_FOLDERS = ['build/contract/', 'build/snapshot/'];
const NEVER_LOADED_BY_GATEWAY = ['build/corpus/load-corpus.ts', 'build/corpus/corpus-schemas.ts'];
const GATEWAY_ENTRIES = ['gateway/start-gateway.ts', 'scripts/commands/serve-command.ts'];

/** One import of a file: its specifier and whether it is erased at run time (`import type`, `export type`). */
interface ImportEdge { specifier: string; typeOnly: boolean }

/** Every import, re-export and dynamic `import('...')` with a string-literal specifier in one source file. */
function importsOf(file: string, text = readFileSync(file, 'utf8')): ImportEdge[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, false);
  const edges: ImportEdge[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      edges.push({ specifier: node.moduleSpecifier.text, typeOnly: node.importClause?.isTypeOnly === true });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      edges.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) edges.push({ specifier: argument.text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      edges.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** The repository-relative path (forward slashes) a relative specifier names, or undefined for a package. */
function resolveRelative(fromFile: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  return relative(ROOT, resolve(dirname(join(ROOT, fromFile)), specifier)).split(sep).join('/');
}

function typeScriptFilesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => `${folder}/${name.split(sep).join('/')}`)
    .sort();
}

/** Files that `entry` loads at run time, following relative value imports (type-only imports are erased). */
function runtimeClosure(entry: string): Map<string, string> {
  const reachedFrom = new Map<string, string>([[entry, entry]]);
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    for (const edge of importsOf(join(ROOT, file))) {
      if (edge.typeOnly) continue;
      const target = resolveRelative(file, edge.specifier);
      if (target === undefined || reachedFrom.has(target)) continue;
      reachedFrom.set(target, file);
      pending.push(target);
    }
  }
  return reachedFrom;
}

/** The import chain from the entry to `file`, for a failure message a reader can follow. */
function chainTo(file: string, reachedFrom: Map<string, string>): string {
  const chain = [file];
  for (let at = file; reachedFrom.get(at) !== at; at = reachedFrom.get(at)!) chain.unshift(reachedFrom.get(at)!);
  return chain.join(' -> ');
}

describe('gateway -> build import boundary', () => {
  it(`imports nothing from build/ outside ${ALLOWED_BUILD_FOLDERS.join(' and ')}`, () => {
    const violations: string[] = [];
    for (const file of typeScriptFilesUnder('gateway')) {
      for (const edge of importsOf(join(ROOT, file))) {
        const target = resolveRelative(file, edge.specifier);
        if (target?.startsWith('build/') && !ALLOWED_BUILD_FOLDERS.some((folder) => target.startsWith(folder))) {
          violations.push(`${file} imports ${target}`);
        }
      }
    }
    assert.deepEqual(violations, []);
  });

  it('keeps build/contract/ self-contained, so importing the contract never drags in the build', () => {
    const violations: string[] = [];
    for (const file of typeScriptFilesUnder('build/contract')) {
      for (const edge of importsOf(join(ROOT, file))) {
        const target = resolveRelative(file, edge.specifier);
        if (target !== undefined && !target.startsWith('build/contract/')) violations.push(`${file} imports ${target}`);
      }
    }
    assert.deepEqual(violations, []);
  });

  for (const entry of GATEWAY_ENTRIES) {
    it(`${entry} does not load the corpus loader or the corpus schemas`, () => {
      const reachedFrom = runtimeClosure(entry);
      const loaded = NEVER_LOADED_BY_GATEWAY.filter((file) => reachedFrom.has(file)).map((file) => chainTo(file, reachedFrom));
      assert.deepEqual(loaded, []);
    });
  }

  it('reads static, multi-line, re-exported, dynamic and type-only imports', () => {
    const text = [
      "import { a,",
      "  b } from './multi-line.ts';",
      "import type { T } from './types-only.ts';",
      "import { type U } from './kept-at-run-time.ts';",
      "export { c } from './re-export.ts';",
      "export type { V } from './type-re-export.ts';",
      "import './side-effect.ts';",
      "const lazy = () => import('./dynamic.ts');",
      "type W = import('./import-type.ts').W;",
    ].join('\n');
    assert.deepEqual(importsOf('probe.ts', text), [
      { specifier: './multi-line.ts', typeOnly: false },
      { specifier: './types-only.ts', typeOnly: true },
      { specifier: './kept-at-run-time.ts', typeOnly: false },
      { specifier: './re-export.ts', typeOnly: false },
      { specifier: './type-re-export.ts', typeOnly: true },
      { specifier: './side-effect.ts', typeOnly: false },
      { specifier: './dynamic.ts', typeOnly: false },
      { specifier: './import-type.ts', typeOnly: true },
    ]);
  });

  it('walks the gateway from its entry into the contract', () => {
    const closure = runtimeClosure('gateway/start-gateway.ts');
    assert.ok(closure.has('gateway/app.ts'), 'the walk must reach the app factory');
    assert.ok(closure.has('build/contract/api-version.ts'), 'the walk must reach the contract');
  });
});
