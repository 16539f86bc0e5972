import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  {
    files: ['pages/**/*.ts', 'pages/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-console': 'off',
      // Pages put data in as text (lib/dom.ts element()), never as markup.
      'no-restricted-properties': [
        'error',
        ...[
          { property: 'innerHTML' },
          { property: 'outerHTML' },
          { property: 'insertAdjacentHTML' },
          { object: 'document', property: 'write' },
          { object: 'document', property: 'writeln' },
        ].map((rule) => ({ ...rule, message: 'Pages build the DOM with element() and textContent.' })),
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['test/**', 'bench/**', 'scripts/**', 'src/cli/**'],
    rules: { 'no-console': 'off' },
  },
);
