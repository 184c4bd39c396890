import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import { dirname, relative, resolve, sep } from 'node:path';

// The floors of the house (docs/design.md §9 and the layout in README.md): src/core is the domain and knows nothing of
// the command line or the terminal UI; src/core/facts is pure (plain data in, facts out) and knows no store, model or
// library surface. Packages are matched by name (no-restricted-imports); relative imports by where they land, resolved
// from the importing file, so every spelling of a path (`../store/x.js`, `../../core/store/x.js`, `./../store/x.js`,
// `../facts/../model/x.js`) is the same import.
const uiPackages = ['@oclif/*', 'ink', 'ink/*', 'ink-*', 'react', 'react/*', 'react-dom', 'react-dom/*'];
const coreMessage = 'src/core must not depend on the CLI or the terminal UI (oclif, ink, React, src/cli, src/ui, src/commands).';
const indexMessage = 'src/core must not import the library surface (src/index.ts): import the module itself.';
const factsMessage = 'src/core/facts is pure: it must not import the store or the model layer.';
/** Areas of src/ (a directory, or a module without its extension; '' is src itself) and why core may not import them. */
const coreAreas = [
  { areas: ['cli', 'ui', 'commands', 'hooks'], message: coreMessage },
  { areas: ['', 'index'], message: indexMessage },
];
const factsAreas = [...coreAreas, { areas: ['core/store', 'core/model'], message: factsMessage }];
const SRC = resolve(import.meta.dirname, 'src');

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
          TSImportType: (node) => check(node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument),
          TSExternalModuleReference: (node) => check(node.expression),
        };
      },
    },
  },
};

const importRules = (areas) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: uiPackages, message: coreMessage }] }],
  // The same for import('…') expressions, which no-restricted-imports does not see.
  'no-restricted-syntax': [
    'error',
    {
      selector: `ImportExpression[source.value=/^(?:${uiPackages.map((name) => name.replace('/*', '(?:/.*)?').replace('-*', '-.*').replaceAll('/', '\\/')).join('|')})$/]`,
      message: coreMessage,
    },
  ],
  'hippo/layers': ['error', areas],
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'reports/**', '.stryker-tmp/**', 'bench/.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
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
      'no-console': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  prettier,
  {
    files: ['src/core/**/*.ts', 'src/core/**/*.tsx'],
    plugins: { hippo: layering },
    rules: importRules(coreAreas),
  },
  {
    files: ['src/core/facts/**/*.ts'],
    rules: importRules(factsAreas),
  },
  {
    // Every integer flag has a stated range (src/cli/int-flag.ts): oclif's own has no upper bound.
    files: ['src/commands/**/*.ts', 'src/cli/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='Flags'][property.name='integer']",
          message: 'Use intFlag({min, max, …}) from src/cli/int-flag.ts: every integer flag states its range (exit 2 outside it).',
        },
      ],
    },
  },
  {
    files: ['bench/**', 'test/**'],
    rules: { 'no-console': 'off' },
  },
);
