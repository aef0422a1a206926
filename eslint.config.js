import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import pluginQuery from '@tanstack/eslint-plugin-query';
import pluginRouter from '@tanstack/eslint-plugin-router';
import globals from 'globals';
import fs from 'node:fs';
import path from 'node:path';

/** The feature folders (`src/features/<name>/`), read when the lint starts. */
const FEATURES = fs
  .readdirSync(path.join(import.meta.dirname, 'src', 'features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** An import path that reaches one of these top-level folders (or files) of `src/`. */
const layerPath = (...names) => `(^|/)(${names.join('|')})(/|$)`;

/** From inside `src/features/<feature>/`: a path into any other feature folder. */
const otherFeaturePath = (feature) => {
  const others = FEATURES.filter((f) => f !== feature).join('|');
  return `^(\\.\\./|.*/features/)(${others})(/|$)`;
};

const SERVER_CODE = {
  group: ['**/server/**'],
  message: 'The console talks to the service only over HTTP.',
};

/** `no-restricted-imports` for `files`: never the service's code, nor what `patterns` name. */
const restrictImports = (files, ...patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns: [SERVER_CODE, ...patterns] }] },
});

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
  // The console's layers, one-way: routes -> features -> widgets -> ui, lib, api, live.
  // Each block names what a folder may not import (beside the service's code, which no console
  // file imports); for one file the last block that matches it decides.
  restrictImports(['src/**/*.{ts,tsx}']),
  restrictImports(['src/ui/**/*.{ts,tsx}', 'src/api/**/*.{ts,tsx}', 'src/live/**/*.{ts,tsx}'], {
    regex: layerPath('features', 'widgets', 'routes', 'routeTree\\.gen'),
    message: 'ui/, api/ and live/ are shared: they must not depend on widgets, features or routes.',
  }),
  restrictImports(['src/lib/**/*.{ts,tsx}'], {
    regex: layerPath('features', 'widgets', 'routes', 'routeTree\\.gen', 'ui', 'api', 'live'),
    message: 'lib/ holds helpers every layer uses: it imports no other folder of the console.',
  }),
  restrictImports(['src/widgets/**/*.{ts,tsx}'], {
    regex: layerPath('features', 'routes', 'routeTree\\.gen'),
    message:
      'widgets/ are shared by features: they build on ui, lib, api, live and other widgets, never on features or routes.',
  }),
  // One block per feature folder: it may import no other feature (and no route).
  ...FEATURES.map((feature) =>
    restrictImports(
      [`src/features/${feature}/**/*.{ts,tsx}`],
      {
        regex: layerPath('routes', 'routeTree\\.gen'),
        message: 'Features do not import routes: a route renders a feature, not the other way.',
      },
      {
        regex: otherFeaturePath(feature),
        message: `Features never import each other. Move what ${feature}/ takes from another feature into src/widgets/ (a shared composite), src/ui/ or src/lib/.`,
      },
    ),
  ),
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
    'alerts',
    'mcp',
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
    // Alert evaluation and deliveries: read telemetry through the store's ports only.
    alerts: ['core', 'domain', 'views'],
    routes: ['core', 'domain', 'auth', 'views', 'ingest', 'otlp', 'http', 'alerts'],
    // The MCP server reads through the app's routes (app.request), never their modules.
    mcp: ['core', 'domain', 'auth', 'http'],
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
