import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/**
 * The console's layers import one way: lib → api → components → features → app. Each layer
 * lists what it must never reach for (shared code never imports a feature or the app).
 */
const consoleLayer = (files, forbidden) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: forbidden.map((layer) => ({
          regex: `(^|/)${layer}(/|$)`,
          message: `src/${files[0].split('/')[1]} sits below src/${layer} (lib → api → components → features → app).`,
        })),
      },
    ],
  },
});

// Only server/store knows which database is under it; the rest of the service uses its ports.
const storeInternals = [
  'better-sqlite3',
  'pg',
  'kysely',
  '**/store/sql/*',
  '**/store/sqlite/*',
  '**/store/postgres/*',
  '**/store/migrations/**',
];

export default tseslint.config(
  {
    ignores: ['dist', 'node_modules', 'data', 'test-results', 'playwright-report', 'bench/results'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  consoleLayer(['src/lib/**/*.{ts,tsx}'], ['api', 'components', 'features', 'app']),
  consoleLayer(['src/api/**/*.{ts,tsx}'], ['components', 'features', 'app']),
  consoleLayer(['src/components/**/*.{ts,tsx}'], ['features', 'app']),
  {
    files: ['server/**/*.ts'],
    ignores: ['server/store/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: storeInternals }] },
  },
  {
    // The domain stays free of adapters: jobs/ never reaches for HTTP, Docker or SQL.
    files: ['server/jobs/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            'fastify',
            '@fastify/*',
            'dockerode',
            '../http/*',
            '../store/*',
            '../runtime/*',
            // From the ports' folder (jobs/ports/) too.
            '../../http/*',
            '../../store/*',
            '../../runtime/*',
            ...storeInternals,
          ],
        },
      ],
    },
  },
  {
    // Sign-in is domain too: sessions and roles over the store's ports, never HTTP or SQL.
    files: ['server/auth/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            'fastify',
            '@fastify/*',
            'dockerode',
            '../http/*',
            '../runtime/*',
            ...storeInternals,
          ],
        },
      ],
    },
  },
  {
    // Features never import each other (shared → features → app).
    files: ['src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!\\.)|/features/',
              message:
                'A feature never imports another feature; move shared code to src/lib or src/components.',
            },
            { regex: '(^|/)app(/|$)', message: 'Features sit below the app shell.' },
          ],
        },
      ],
    },
  },
);
