import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests against the real server: global-setup.ts starts `apps/server/src/main.ts` on a free
 * port with a fresh PGlite DATA_DIR and an in-process SMTP capture server, and hands the address to
 * the specs in TANDEM_E2E_BASE_URL. Chromium is Debian's /usr/bin/chromium (npm cannot download
 * browsers here; scripts/ensure-chromium.sh installs it).
 */
const here = import.meta.dirname;

export default defineConfig({
  testDir: path.join(here, 'specs'),
  outputDir: path.join(here, 'artifacts'),
  globalSetup: path.join(here, 'global-setup.ts'),
  globalTeardown: path.join(here, 'global-teardown.ts'),
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.TANDEM_E2E_REPORT ?? path.join(here, 'artifacts', 'report.json') }],
  ],
  use: {
    // Set by global-setup.ts before the workers start (workers load this file again).
    baseURL: process.env.TANDEM_E2E_BASE_URL,
    headless: true,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-dev-shm-usage',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--disable-quic',
            '--no-first-run',
          ],
        },
      },
    },
  ],
});
