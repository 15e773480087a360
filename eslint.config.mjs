// Lint for the core, the sandbox and the cross-package tests. The n8n package has its own config
// (exactly the one n8n's tooling requires) and the Zapier app is checked by Zapier's validate.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'packages/mcp/build/**', 'packages/n8n-nodes-shortlink/**', 'packages/zapier/**', '**/generated/**'] },
  ...tseslint.configs.recommended,
  {
    // CommonJS helpers run by plain Node (e.g. the Zapier zip driver) load modules with require().
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
