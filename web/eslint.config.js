import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import importPlugin, { createNodeResolver } from 'eslint-plugin-import-x'
import globals from 'globals'

// Every feature folder, so a new feature is fenced in without editing this file.
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)

// Imports flow one way: routes → features → shared (components, lib, config). A feature never
// imports another feature: shared state (workspace, dataset, selection) lives in src/lib, and a
// route composes features (bulletproof-react's import/no-restricted-paths zones).
const zones = [
  ...features.map((f) => ({
    target: `./src/features/${f}`,
    from: './src/features',
    except: [`./${f}`],
    message: 'Features do not import each other: move shared state to src/lib, or compose the two in a route.',
  })),
  { target: './src/features', from: './src/routes', message: 'Features do not import routes.' },
  {
    target: ['./src/components', './src/lib', './src/config'],
    from: ['./src/features', './src/routes'],
    message: 'Shared code (components, lib, config) does not import features or routes.',
  },
]

export default tseslint.config(
  { ignores: ['dist', 'src/routeTree.gen.ts', 'e2e/screenshots'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks, import: importPlugin },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
      // no-cycle reads the imported files too; without a TypeScript parser it skips them silently.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js'],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import/no-restricted-paths': ['error', { zones }],
      'import/no-cycle': 'error',
    },
  },
  // e2e code runs in Node, and the callbacks it hands to page.evaluate run in the browser.
  { files: ['e2e/**/*.mjs', 'scripts/**/*.mjs', '*.config.js'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
)
