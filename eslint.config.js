import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import { dirname, relative, resolve, sep } from 'node:path';

// The floors of the house (docs/design.md §9 and the layout in README.md), top to bottom: src/entry (the command
// registry, oclif's entry and hooks: nothing imports it); src/commands; the three faces src/cli, src/mcp and src/ui,
// which never import one another; src/views, the views all three share (they import only the core); src/core, the
// domain, which knows nothing of the command line, the terminal UI or the MCP server; src/core/facts is pure (plain
// data in, facts out) and knows no store, model or library surface. Packages are matched by name (no-restricted-imports); relative imports by where they land, resolved
// from the importing file, so every spelling of a path (`../store/x.js`, `../../core/store/x.js`, `./../store/x.js`,
// `../facts/../model/x.js`) is the same import. The storage port (docs/store.md) adds its own floors below: each driver
// only in its adapter, and an adapter only through openStore.
const uiPackages = ['@oclif/*', 'ink', 'ink/*', 'ink-*', 'react', 'react/*', 'react-dom', 'react-dom/*'];
const coreMessage =
  'src/core must not depend on the CLI or the terminal UI, nor on the MCP server (oclif, ink, React, src/cli, src/ui, src/commands, src/mcp, src/views, src/entry).';
const indexMessage = 'src/core must not import the library surface (src/index.ts): import the module itself.';
const factsMessage = 'src/core/facts is pure: it must not import the store or the model layer.';
/** Areas of src/ (a directory, or a module without its extension; '' is src itself) and why core may not import them. */
const coreAreas = [
  { areas: ['cli', 'ui', 'commands', 'mcp', 'views', 'entry'], message: coreMessage },
  { areas: ['', 'index'], message: indexMessage },
];
const factsAreas = [...coreAreas, { areas: ['core/store', 'core/model'], message: factsMessage }];
const SRC = resolve(import.meta.dirname, 'src');

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
const uiGroup = { group: uiPackages, message: coreMessage };
// The MCP SDK (and what it pulls in: express, hono, ajv…) belongs to `hippo mcp` alone (docs/mcp.md).
const mcpSdk = {
  group: ['@modelcontextprotocol/*'],
  message: 'the MCP SDK belongs to the MCP server: import it only under src/mcp/ (commands load src/mcp lazily).',
};
const mcpMessage =
  'src/mcp is a front end beside the CLI and the review screen: it uses src/core and src/views, never oclif, ink, React, src/cli, src/ui, src/commands or src/entry.';
const cliMessage = 'src/cli is the command line toolkit below the commands: it uses src/core and src/views, never src/mcp, src/ui, src/commands or src/entry.';
const uiMessage = 'src/ui is the review screen: it uses src/core and src/views, never oclif, the MCP SDK, src/cli, src/mcp, src/commands or src/entry.';
const viewsMessage =
  'src/views serves the CLI, the MCP server and the review screen alike: it uses src/core only, never oclif, ink, React, src/cli, src/mcp, src/ui, src/commands or src/entry.';
const entryMessage = "src/entry is the top floor (the command registry, oclif's entry and hooks): nothing below it imports it.";
const entryArea = { areas: ['entry'], message: entryMessage };
const adapterMessage = 'open a store with openStore (src/core/store/store.ts): only src/core/store/ imports an adapter.';
const anyAdapter = { areas: ['core/store/sqlite', 'core/store/postgres'], message: adapterMessage };
const sqliteAdapter = { areas: ['core/store/sqlite'], message: 'the PostgreSQL adapter must not use the SQLite adapter.' };
const postgresAdapter = { areas: ['core/store/postgres'], message: 'the SQLite adapter must not use the PostgreSQL adapter.' };

/** Where a relative import lands, as a path under src/ ('' for src itself, no extension); undefined for a package. */
function landing(filename, specifier) {
  if (!/^\.{1,2}(?:\/|$)/.test(specifier)) return undefined;
  const target = relative(SRC, resolve(dirname(filename), specifier))
    .split(sep)
    .join('/');
  return target.replace(/\.(?:[cm]?[jt]sx?)$/, '');
}

/** `layers`: relative imports (static, dynamic, re-exports, type imports) must not land in the areas given. */
const layering = {
  rules: {
    layers: {
      meta: { type: 'problem', schema: [{ type: 'array' }] },
      create(context) {
        const rules = context.options[0] ?? [];
        const check = (node) => {
          const specifier =
            node?.type === 'Literal' ? node.value : node?.type === 'TemplateLiteral' && node.expressions.length === 0 ? node.quasis[0].value.cooked : undefined;
          if (typeof specifier !== 'string') return;
          const target = landing(context.filename, specifier);
          if (target === undefined) return;
          const rule = rules.find(({ areas }) => areas.some((area) => target === area || (area !== '' && target.startsWith(`${area}/`))));
          if (rule) context.report({ node, message: `'${specifier}' (src/${target}): ${rule.message}` });
        };
        return {
          ImportDeclaration: (node) => check(node.source),
          ExportAllDeclaration: (node) => check(node.source),
          ExportNamedDeclaration: (node) => check(node.source),
          ImportExpression: (node) => check(node.source),
          // `source` on current typescript-eslint (reading `argument` there prints a deprecation warning), `argument` before.
          TSImportType: (node) => check(node.source ?? (node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument)),
          TSExternalModuleReference: (node) => check(node.expression),
        };
      },
    },
  },
};

// Every integer flag has a stated range (src/cli/int-flag.ts): oclif's own has no upper bound.
const rangedIntegerFlags = {
  selector: "MemberExpression[object.name='Flags'][property.name='integer']",
  message: 'Use intFlag({min, max, …}) from src/cli/int-flag.ts: every integer flag states its range (exit 2 outside it).',
};

/**
 * Packages (`groups`, by name) and areas of src/ (`areas`, by where a relative import lands) a file may not import,
 * plus any other forbidden syntax (`syntax`) for the same files: one flat-config block sets each rule whole.
 */
const importRules = ({ groups, areas, syntax = [] }) => ({
  'no-restricted-imports': ['error', { patterns: groups }],
  // The same for import('…') expressions, which no-restricted-imports does not see.
  'no-restricted-syntax': [
    'error',
    ...groups.map((pattern) => ({
      selector: `ImportExpression[source.value=/^(?:${pattern.group.map((name) => name.replace('/*', '(?:/.*)?').replace('-*', '-.*').replaceAll('/', '\\/')).join('|')})$/]`,
      message: pattern.message,
    })),
    ...syntax,
  ],
  'hippo/layers': ['error', areas],
});

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
    plugins: { hippo: layering },
    rules: importRules({ groups: [sqliteDriver, pgDriver, mcpSdk], areas: [anyAdapter, entryArea] }),
  },
  {
    // The top floor imports every floor below it (and its own files).
    files: ['src/entry/**/*.ts'],
    rules: importRules({ groups: [sqliteDriver, pgDriver, mcpSdk], areas: [anyAdapter] }),
  },
  {
    // No import cycle between files of src/ (issue 24): a static import, a re-export or an `import()` closing a loop
    // fails, however long the loop. `import type` is erased before the code runs and does not count (facts/kinds.ts and
    // facts/lexicon.ts share the `Kind` type that way). Relative imports name the `.js` the build writes: resolved to
    // the `.ts` beside it.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'], extensionAlias: { '.js': ['.ts', '.tsx', '.js'] } })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['src/commands/**/*.ts'],
    rules: importRules({ groups: [sqliteDriver, pgDriver, mcpSdk], areas: [anyAdapter, entryArea], syntax: [rangedIntegerFlags] }),
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: importRules({
      groups: [sqliteDriver, pgDriver, mcpSdk],
      areas: [{ areas: ['mcp', 'ui', 'commands', 'entry'], message: cliMessage }, anyAdapter],
      syntax: [rangedIntegerFlags],
    }),
  },
  {
    files: ['src/mcp/**/*.ts'],
    rules: importRules({
      groups: [{ group: uiPackages, message: mcpMessage }, sqliteDriver, pgDriver],
      areas: [{ areas: ['cli', 'ui', 'commands', 'entry'], message: mcpMessage }, anyAdapter],
    }),
  },
  {
    files: ['src/ui/**/*.ts', 'src/ui/**/*.tsx'],
    rules: importRules({
      groups: [{ group: ['@oclif/*'], message: uiMessage }, sqliteDriver, pgDriver, { ...mcpSdk, message: uiMessage }],
      areas: [{ areas: ['cli', 'mcp', 'commands', 'entry'], message: uiMessage }, anyAdapter],
    }),
  },
  {
    files: ['src/views/**/*.ts'],
    rules: importRules({
      groups: [{ group: uiPackages, message: viewsMessage }, sqliteDriver, pgDriver, { ...mcpSdk, message: viewsMessage }],
      areas: [{ areas: ['cli', 'mcp', 'ui', 'commands', 'entry'], message: viewsMessage }, anyAdapter],
    }),
  },
  {
    files: ['src/core/**/*.ts', 'src/core/**/*.tsx'],
    rules: importRules({ groups: [uiGroup, sqliteDriver, pgDriver, mcpSdk], areas: [...coreAreas, anyAdapter] }),
  },
  {
    files: ['src/core/facts/**/*.ts'],
    rules: importRules({ groups: [uiGroup, sqliteDriver, pgDriver, mcpSdk], areas: [...factsAreas, anyAdapter] }),
  },
  {
    // The store's own door (store.ts, port.ts, lock.ts) dispatches to the adapters; it imports no driver.
    files: ['src/core/store/*.ts'],
    rules: importRules({ groups: [uiGroup, sqliteDriver, pgDriver, mcpSdk], areas: coreAreas }),
  },
  {
    files: ['src/core/store/sqlite/**/*.ts'],
    rules: importRules({ groups: [uiGroup, pgDriver, mcpSdk], areas: [...coreAreas, postgresAdapter] }),
  },
  {
    files: ['src/core/store/postgres/**/*.ts'],
    rules: importRules({ groups: [uiGroup, sqliteDriver, mcpSdk], areas: [...coreAreas, sqliteAdapter] }),
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
