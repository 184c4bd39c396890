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
    rules: importRules(corePatterns),
  },
  {
    files: ['src/core/facts/**/*.ts'],
    rules: importRules([...corePatterns, { regex: storeOrModel, message: factsMessage }]),
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
