/** Every runtime dependency is imported by the code that ships: an unused one is attack surface and install time for nothing. */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..');
const SHIPPED = ['build', 'gateway', 'scripts'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && (entry.name.endsWith('.ts') || entry.name.endsWith('.js')))
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * Package names a file imports, statically or dynamically, or resolves a file of to read it (`require.resolve`:
 * the gateway serves Redoc's browser bundle, which Node must never run) (`@scope/name/sub` counts as `@scope/name`).
 */
function importedPackages(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+|require\.resolve\(\s*|import\.meta\.resolve\(\s*)['"]([^'".][^'"]*)['"]/g)) {
    const specifier = match[1]!;
    if (specifier.startsWith('node:')) continue;
    const parts = specifier.split('/');
    names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
  }
  return names;
}

describe('package.json dependencies', () => {
  it('lists only packages that build/, gateway/ or scripts/ import', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const imported = new Set<string>();
    for (const dir of SHIPPED) {
      for (const file of sourceFiles(join(ROOT, dir))) for (const name of importedPackages(readFileSync(file, 'utf8'))) imported.add(name);
    }
    const unused = Object.keys(manifest.dependencies).filter((name) => !imported.has(name));
    assert.deepEqual(unused, [], `dependencies no shipped file imports: ${unused.join(', ')}`);
  });

  it('decides every install script the lock holds in allowScripts, so npm ci warns of none (issue 42)', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const scripted = Object.entries(lock.packages).filter(([, entry]) => entry.hasInstallScript === true).map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    const undecided = [...new Set(scripted)].filter((name) => typeof manifest.allowScripts?.[name] !== 'boolean').sort();
    assert.deepEqual(undecided, [], `install scripts allowScripts does not decide: ${undecided.join(', ')}`);
  });
});
