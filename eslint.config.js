// ESLint (flat config): the recommended rules for the Node.js code and for the site's browser modules.
// Formatting is Prettier's job (.prettierrc.json); ESLint checks what formatting cannot.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['node_modules/', 'test-artifacts/', 'results/', 'test/fixtures/', 'site/vendor/'] },
  js.configs.recommended,
  {
    files: ['**/*.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      // `_name` marks a parameter a signature needs but the body does not (e.g. a base class's setup(_ctx)).
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // A function a reader can hold in view: past 100 lines, split it where that makes it clearer. Tests are
    // exempt (a test reads top to bottom as one scenario).
    files: ['src/**/*.js', 'site/js/**/*.js', 'bench/**/*.js', 'scripts/**/*.js'],
    rules: { 'max-lines-per-function': ['error', { max: 100 }] },
  },
  {
    files: ['site/js/**/*.js'],
    languageOptions: { globals: { ...globals.browser, Chart: 'readonly' } },
  },
  {
    // page.evaluate() bodies run in the browser.
    files: [
      'test/site/**/*.js',
      'test/helpers/browser.js',
      'test/helpers/site.js',
      'bench/site.js',
      'bench/doc-images.js',
    ],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
];
