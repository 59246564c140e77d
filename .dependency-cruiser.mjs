/**
 * The import rules of gateway/ and build/ (STYLE 1, 27), checked by dependency-cruiser: in `npm test`
 * through test/dependency-rules.test.ts, and by hand with `npx depcruise gateway build scripts`.
 * Type-only imports count (`tsPreCompilationDeps`): a cycle of types still hides which side is the vocabulary.
 */
export default {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'No import cycles in gateway/ or build/, type-only imports included (STYLE 27): a vocabulary sits below everything that reads it.',
      from: { path: '^(gateway|build)/' },
      to: { circular: true },
    },
    {
      name: 'gateway-reads-only-the-contract-from-build',
      severity: 'error',
      comment: 'The gateway imports from build/ only the shared contract (build/contract/) and the snapshot format with its read-side checks (build/snapshot/) (STYLE 1).',
      from: { path: '^gateway/' },
      to: { path: '^build/', pathNot: '^build/(contract|snapshot)/' },
    },
    {
      name: 'contract-self-contained',
      severity: 'error',
      comment: 'build/contract/ imports nothing else of ours, so importing the contract never drags in the build.',
      from: { path: '^build/contract/' },
      to: { pathNot: '^build/contract/', dependencyTypesNot: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-bundled', 'npm-no-pkg', 'core'] },
    },
    {
      name: 'archive-imports-no-gateway',
      severity: 'error',
      comment: 'build/archive/ (the evidence archive, read by replay, verify and prune) never imports the gateway (STYLE 1).',
      from: { path: '^build/archive/' },
      to: { path: '^gateway/' },
    },
    {
      name: 'gateway-start-loads-no-corpus-loader',
      severity: 'error',
      comment: 'Starting the gateway loads neither the corpus loader nor the corpus\'s ajv schemas (issue 13 item 4).',
      from: { path: '^(gateway/start-gateway|scripts/commands/serve-command)\\.ts$' },
      to: { path: '^build/corpus/(load-corpus|corpus-schemas)\\.ts$', reachable: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
