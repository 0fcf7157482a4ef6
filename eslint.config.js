// The project's own code, linted with ESLint and typescript-eslint (`npm run lint`, after a build:
// the project-internal rule is TypeScript, loaded from dist/).
import js from '@eslint/js'
import {defineConfig} from 'eslint/config'
import tseslint from 'typescript-eslint'
import regexp from 'eslint-plugin-regexp'
import ruleModule from './dist/tools/eslint/rule-module.js'

export default defineConfig(
  {ignores: ['dist/', 'node_modules/', 'coverage/']},
  js.configs.recommended,
  ...tseslint.configs.recommended,
  regexp.configs.recommended,
  {
    rules: {
      // Plans are text an agent wrote: every pattern that sees it must run in linear time (docs/security.md);
      // test/redos.test.ts checks the built patterns with recheck as well.
      'regexp/no-super-linear-backtracking': ['error', {report: 'potential'}],
      'regexp/no-super-linear-move': 'error',
      // Style rules of the recommended set: they would rewrite patterns across the rules without changing what they match.
      'regexp/use-ignore-case': 'off',
      'regexp/prefer-w': 'off',
      'regexp/no-unused-capturing-group': 'off',
      'regexp/no-useless-non-capturing-group': 'off',
      'regexp/no-useless-character-class': 'off',
      'regexp/no-dupe-characters-character-class': 'off',
      // `\b[^.]{0,25}\b` is how the rules write "a few words later"; the zero is harmless.
      'regexp/no-contradiction-with-assertion': 'off',
      'regexp/optimal-quantifier-concatenation': 'off'
    }
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: {globals: {process: 'readonly', console: 'readonly', URL: 'readonly'}}
  },
  {
    rules: {
      // Rule definitions are generic over their options; adapters hold them as `RuleDefinition<any>`.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', {argsIgnorePattern: '^_', varsIgnorePattern: '^_'}]
    }
  },
  {
    // The reporters strip ANSI colour codes, which are control characters.
    files: ['src/reporters/**'],
    rules: {'no-control-regex': 'off'}
  },
  {
    files: ['rules/*.ts'],
    ignores: ['rules/index.ts'],
    plugins: {planlint: {rules: {'rule-module': ruleModule}}},
    rules: {'planlint/rule-module': 'error'}
  }
)
