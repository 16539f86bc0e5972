/** Architecture rules checked by `npm run lint` (see docs/architecture.md). */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'A module never reaches itself again through its imports, types included.',
      from: { path: '^(src|streams)/' },
      to: { circular: true },
    },
    {
      name: 'no-routes-from-services',
      severity: 'error',
      comment: 'Routes are the outermost layer: services, stores and streams never import them.',
      from: {
        path: '^(src|streams)/',
        pathNot: ['(^|/)(routes|plugin)[^/]*\\.ts$', '^src/app\\.ts$', '^src/station\\.ts$'],
      },
      to: { path: '(^|/)routes[^/]*\\.ts$' },
    },
    {
      name: 'http-only-in-adapters',
      severity: 'error',
      comment:
        'Services, stores, clients and streams throw the errors of src/errors.ts and know no HTTP status: only ' +
        'HTTP adapters import src/http (docs/architecture.md, "Rules enforced in lint").',
      from: {
        path: '^(src|streams)/',
        pathNot: [
          '^src/http/',
          '^src/(app|main)\\.ts$',
          '(^|/)(routes|plugin)\\.ts$',
          '-routes\\.ts$',
          // The content store's gateway: a node:http server of its own that answers like the API.
          '^src/drive/store/gateway\\.ts$',
        ],
      },
      to: { path: '^src/http/' },
    },
    {
      name: 'no-tests-from-sources',
      severity: 'error',
      from: { path: '^(src|streams|pages)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^test/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
