import { defineConfig } from 'vitest/config';

// Projects: fast pure unit tests; API integration tests that start the server in-process against
// PGlite (default) or the PostgreSQL server named by DATABASE_URL; the real-switch tests (Kamailio).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/*/test/**/*.test.ts',
            'apps/web/src/**/*.test.ts',
            'apps/server/test/unit/**/*.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api',
          include: ['apps/server/test/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30000,
          hookTimeout: 60000,
          fileParallelism: false,
        },
      },
      {
        test: {
          // npm run test:switch (Kamailio and sipp): not part of npm test
          name: 'switch',
          include: ['switch/test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180000,
          hookTimeout: 120000,
          fileParallelism: false,
        },
      },
    ],
  },
});
