import { defineConfig } from 'vitest/config';

// Projects: fast pure unit tests; API integration tests that start the server in-process against
// PGlite (default) or the PostgreSQL server named by DATABASE_URL; the real-switch tests (Kamailio).
export default defineConfig({
  test: {
    // Two files at a time: the CI machine has two cores (docs/architecture.md "Tests").
    maxWorkers: 2,
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
          // A few property tests build 100,000s of entries: room for a busy machine.
          testTimeout: 30000,
        },
      },
      {
        test: {
          name: 'api',
          include: ['apps/server/test/api/**/*.test.ts'],
          globalSetup: ['apps/server/test/api/global-setup.ts'],
          environment: 'node',
          testTimeout: 30000,
          hookTimeout: 60000,
          // Each file starts its own server on its own database (PGlite in memory, or a fresh
          // PostgreSQL database), so files may run side by side; and one module graph per worker
          // (isolate: false) saves loading the whole server again for every file, which took a third
          // of the stage's time. No module of the server keeps state outside the app a file builds.
          fileParallelism: true,
          isolate: false,
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
