import { defineConfig } from 'vitest/config';

// Two projects: fast pure unit tests, and API integration tests that start the server in-process
// against PGlite (default) or the PostgreSQL server named by DATABASE_URL.
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
    ],
  },
});
