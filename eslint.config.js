import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import pluginQuery from '@tanstack/eslint-plugin-query';
import pluginRouter from '@tanstack/eslint-plugin-router';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'test-results',
      'playwright-report',
      'bench/results',
      'src/routeTree.gen.ts',
      'src/api/schema.gen.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  ...pluginQuery.configs['flat/recommended'],
  ...pluginRouter.configs['flat/recommended'],
  {
    // The console never reaches into the service's code, and the service never into the console's.
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**'],
              message: 'The console talks to the service only over HTTP.',
            },
          ],
        },
      ],
    },
  },
  {
    // One-way imports: ui and lib know nothing of features or routes; features do not import each other's internals.
    files: ['src/ui/**/*.{ts,tsx}', 'src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/**', '**/routes/**', '**/widgets/**'],
              message:
                'ui/ and lib/ are shared: they must not depend on widgets, features or routes.',
            },
          ],
        },
      ],
    },
  },
  {
    // Widgets are composites several features share: they build on ui, lib, api and live only.
    files: ['src/widgets/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/**', '**/routes/**'],
              message:
                'widgets/ are shared by features: they must not depend on features or routes.',
            },
            {
              group: ['**/server/**'],
              message: 'The console talks to the service only over HTTP.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/src/**'], message: 'The service does not import console code.' },
          ],
        },
      ],
    },
  },
  // The service's layers point down only (docs/architecture.md, "Layers and imports"): each
  // folder may import the layers listed for it and nothing above. Tests stand above every layer.
  ...serverLayers(),
);

/**
 * `no-restricted-imports` for each server layer: an import that climbs out of the folder
 * (`../`, `../../`, …) to a top-level server folder or file not allowed below it is refused.
 */
function serverLayers() {
  const TOP = [
    'core',
    'domain',
    'store',
    'feed',
    'views',
    'auth',
    'ingest',
    'otlp',
    'http',
    'routes',
    'app',
    'listen',
    'shutdown',
    'shared-state',
    'service',
    'main',
    'migrate-command',
    'retention-command',
    'demo',
    'admin',
    'test-support',
  ];
  /** What each layer may import, besides itself. */
  const MAY_IMPORT = {
    domain: [],
    core: ['domain'],
    store: ['core', 'domain'],
    feed: ['core', 'domain'],
    views: ['core', 'domain'],
    auth: ['core', 'domain'],
    ingest: ['core', 'domain', 'views'],
    otlp: ['core', 'domain', 'ingest'],
    http: ['core', 'domain', 'auth', 'views'],
    routes: ['core', 'domain', 'auth', 'views', 'ingest', 'otlp', 'http'],
  };
  const layerRule = (layer, extra = []) => {
    const allowed = MAY_IMPORT[layer];
    const refused = TOP.filter((t) => t !== layer && !allowed.includes(t));
    const pattern = {
      regex: `^(\\.\\./)+(${refused.join('|')})(/|$)`,
      message: `server/${layer}/ may import ${allowed.join(', ') || 'nothing else in server/'}: imports point down (docs/architecture.md).`,
    };
    return {
      files: [`server/${layer}/**/*.ts`],
      ignores: ['server/**/*.test.ts'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              { group: ['**/src/**'], message: 'The service does not import console code.' },
              pattern,
              ...extra,
            ],
          },
        ],
      },
    };
  };
  const tier = (other) => ({
    regex: `^\\.\\./\\.\\./${other}/`,
    message:
      'The state and telemetry tiers know nothing of each other: what both need is in the engine folder (store/sqlite, store/postgres) or store/rows.',
  });
  const belowTiers = {
    regex: '^\\.\\./(state|telemetry)/|^\\.\\./(sqlite-store|postgres-store|open-store)$',
    message:
      'store/rows and the engine folders sit below the tiers and the assemblers: they never import them.',
  };
  return [
    ...Object.keys(MAY_IMPORT)
      .filter((l) => l !== 'store')
      .map((l) => layerRule(l)),
    layerRule('store'),
    { ...layerRule('store', [tier('telemetry')]), files: ['server/store/state/**/*.ts'] },
    { ...layerRule('store', [tier('state')]), files: ['server/store/telemetry/**/*.ts'] },
    {
      ...layerRule('store', [belowTiers]),
      files: [
        'server/store/rows/**/*.ts',
        'server/store/sqlite/**/*.ts',
        'server/store/postgres/**/*.ts',
      ],
    },
  ];
}
