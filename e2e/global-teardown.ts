import fs from 'node:fs';
import type { E2eState } from './global-setup';

/** Stops the server and the SMTP capture started by global-setup.ts and removes the temporary folder. */
export default async function globalTeardown(): Promise<void> {
  const state: E2eState | undefined = globalThis.tandemE2e;
  if (!state) return;
  globalThis.tandemE2e = undefined;
  const { server, smtp, dir } = state;

  if (server.exitCode === null && server.signalCode === null) {
    const exited = new Promise<void>((r) => server.once('exit', () => r()));
    server.kill('SIGTERM');
    const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  await new Promise<void>((r) => smtp.close(() => r()));

  if (process.env.TANDEM_E2E_KEEP) console.log(`e2e: kept ${dir} (server.log, data, mails.json)`);
  else fs.rmSync(dir, { recursive: true, force: true });
}
