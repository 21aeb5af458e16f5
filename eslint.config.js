// ESLint's recommended rules and typescript-eslint's, for the TypeScript sources, tests, benches and
// scripts; formatting is Prettier's alone (eslint-config-prettier turns off the rules it owns).
// Syntactic rules only: type-aware linting would add half a minute to every `npm test`, and
// `tsc --noEmit` with `strict` already runs there.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['action/', 'dist/', '.bench/', '.test-results/', 'node_modules/', 'examples/', 'test/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      // An unused name is dead code; a leading underscore says "deliberately unused".
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Control characters are matched on purpose: NUL placeholders for blanked code, Python's
      // whitespace set, and the controls stripped from untrusted text before it is posted.
      'no-control-regex': 'off',
      // A binding that closures read before its one assignment (a getter made before the value).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Tests read JSON from the emulator, the CLI and the trace deeply, as the wire gives it.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node, ...globals.commonjs } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
  {
    // Prettier wraps code at 160 columns but never a string or a comment; this catches those.
    files: ['src/**'],
    rules: { 'max-len': ['error', { code: 160, ignoreUrls: false, ignoreRegExpLiterals: false }] },
  },
);
