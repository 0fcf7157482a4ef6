// The project's own code, linted with ESLint and typescript-eslint (`npm run lint`, after a build:
// the project-internal rule is TypeScript, loaded from dist/).
import js from '@eslint/js'
import {defineConfig} from 'eslint/config'
import tseslint from 'typescript-eslint'
import ruleModule from './dist/tools/eslint/rule-module.js'

export default defineConfig(
  {ignores: ['dist/', 'node_modules/', 'coverage/']},
  js.configs.recommended,
  ...tseslint.configs.recommended,
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
