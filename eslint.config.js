// Lint: typescript-eslint's type-checked rules over the kit's TypeScript. The formatter (biome) owns
// layout; these rules own what a type checker alone lets through: a promise nobody awaits (a check
// whose failure would vanish), a switch over a union that forgets a member, a value of unknown type
// used as if known.
//
// `npm run lint` (part of `npm test`) lints every file, the end-to-end tests too, with no cache: a
// type-aware rule's verdict on one file can change with an edit to another.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'svc-reports/**', '.stryker/**', '.stryker-tmp/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // The example test is a user's project: it imports the built package by name, which the kit's
        // own type check must not depend on (tsconfig.json leaves examples out). It is linted with the
        // same compiler options, on its own.
        projectService: { allowDefaultProject: ['examples/*.test.ts'], defaultProject: 'tsconfig.json' },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Leaving a key out of a copy is written `const { digest: _digest, ...rest } = report`: the
      // left-out name is the point, not an oversight.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    // Tests read parsed JSON (a response body, a report) and assert on it: the assertion is the type
    // check there, so reading an untyped value is allowed; an unawaited promise is still an error.
    files: ['**/*.test.ts', 'test/**/*.ts', '**/*test-support.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
