import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

// The floors of the house (docs/design.md §9 and the layout in README.md): src/core is the domain and knows nothing of
// the command line or the terminal UI; src/core/facts is pure (plain data in, facts out) and knows no store or model.
// Relative imports are matched by the directory names they pass through: no directory inside src/core is called
// cli, ui, commands or hooks, so such a segment can only point out of core.
const outOfCore = '^\\.{1,2}/(?:.*/)?(?:cli|ui|commands|hooks)(?:/|\\.js$|$)';
const storeOrModel = '^\\.{1,2}/(?:\\.\\./)*(?:store|model)(?:/|\\.js$|$)';
const uiPackages = ['@oclif/*', 'ink', 'ink/*', 'ink-*', 'react', 'react/*', 'react-dom', 'react-dom/*'];
const coreMessage = 'src/core must not depend on the CLI or the terminal UI (oclif, ink, React, src/cli, src/ui, src/commands).';
const factsMessage = 'src/core/facts is pure: it must not import the store or the model layer.';

// The storage port (docs/store.md): each driver belongs to its adapter, and the rest of hippo reaches an adapter only
// through openStore (src/core/store/store.ts). Tests and benchmarks may open SQLite files or servers directly.
const sqliteDriver = {
  group: ['better-sqlite3', 'better-sqlite3/*'],
  message: 'better-sqlite3 belongs to the SQLite adapter: import it only under src/core/store/sqlite/.',
};
const pgDriver = {
  group: ['pg', 'pg/*', 'pg-*', 'pgpass'],
  message: 'pg belongs to the PostgreSQL adapter: import it only under src/core/store/postgres/.',
};
const adapterMessage = 'open a store with openStore (src/core/store/store.ts): only src/core/store/ imports an adapter.';
const anyAdapter = { regex: '^\\.{1,2}/(?:.*/)?store/(?:sqlite|postgres)(?:/|$)', message: adapterMessage };
const sqliteAdapter = { regex: '^\\.{1,2}/(?:.*/)?(?:store/)?sqlite(?:/|$)', message: 'the PostgreSQL adapter must not use the SQLite adapter.' };
const postgresAdapter = { regex: '^\\.{1,2}/(?:.*/)?(?:store/)?postgres(?:/|$)', message: 'the SQLite adapter must not use the PostgreSQL adapter.' };

const importRules = (patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
  // The same for import('…') expressions, which no-restricted-imports does not see.
  'no-restricted-syntax': [
    'error',
    ...patterns.map((pattern) => ({
      selector: pattern.regex
        ? `ImportExpression[source.value=/${pattern.regex.replaceAll('/', '\\/')}/]`
        : `ImportExpression[source.value=/^(?:${pattern.group.map((name) => name.replace('/*', '(?:/.*)?').replace('-*', '-.*').replaceAll('/', '\\/')).join('|')})$/]`,
      message: pattern.message,
    })),
  ],
});
const corePatterns = [
  { group: uiPackages, message: coreMessage },
  { regex: outOfCore, message: coreMessage },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'reports/**', '.stryker-tmp/**', 'bench/.data/**'] },
  js.configs.recommended,
  // Type-aware: catches a promise left unawaited (no-floating-promises) or passed where a value is expected
  // (no-misused-promises), the mistakes an async store invites.
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          // The two extra vitest configs, and the probes test/repo/lint.test.ts lints as text (never on disk).
          allowDefaultProject: ['vitest.facts.config.ts', 'vitest.rem.config.ts', 'src/*/probe.ts', 'src/core/*/probe.ts', 'src/core/*/*/probe.ts'],
          defaultProject: 'tsconfig.json',
          // Counts the probes one lint test opens; no probe exists on disk, so `eslint .` never reaches it.
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 32,
        },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        URL: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        setImmediate: 'readonly',
        performance: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Noise here: `async` is how a port method (and a test) promises a Promise and turns a throw into a rejection,
      // even where the synchronous SQLite driver leaves nothing to await.
      '@typescript-eslint/require-await': 'off',
      'no-console': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // Plain JavaScript (bin/, configs, test fixtures) is outside the TypeScript projects: no type information.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  prettier,
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    rules: importRules([sqliteDriver, pgDriver, anyAdapter]),
  },
  {
    files: ['src/core/**/*.ts', 'src/core/**/*.tsx'],
    rules: importRules([...corePatterns, sqliteDriver, pgDriver, anyAdapter]),
  },
  {
    files: ['src/core/facts/**/*.ts'],
    rules: importRules([...corePatterns, { regex: storeOrModel, message: factsMessage }, sqliteDriver, pgDriver, anyAdapter]),
  },
  {
    // The store's own door (store.ts, port.ts, lock.ts) dispatches to the adapters; it imports no driver.
    files: ['src/core/store/*.ts'],
    rules: importRules([...corePatterns, sqliteDriver, pgDriver]),
  },
  {
    files: ['src/core/store/sqlite/**/*.ts'],
    rules: importRules([...corePatterns, pgDriver, postgresAdapter]),
  },
  {
    files: ['src/core/store/postgres/**/*.ts'],
    rules: importRules([...corePatterns, sqliteDriver, sqliteAdapter]),
  },
  {
    files: ['bench/**', 'test/**'],
    rules: {
      'no-console': 'off',
      // Noise in tests: they read JSON back from processes, servers and SQL rows (`any` by nature), and a wrong
      // shape fails the assertion that reads it anyway.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
);
