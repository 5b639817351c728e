import { spawn, type ChildProcess } from 'node:child_process';
import { E2E_SETUP_CODE } from './support/setup-code';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { parseMail, type CapturedMail } from './support/mail';

/**
 * Starts what the specs run against: an SMTP capture server in this process (each mail appended to
 * mails.json in a fresh temporary folder) and the real server (`apps/server/src/main.ts` through tsx)
 * on a free port with PGlite in that folder. The specs get the addresses through environment variables
 * (workers inherit them): TANDEM_E2E_BASE_URL, TANDEM_E2E_MAIL_FILE, TANDEM_E2E_DIR.
 * global-teardown.ts stops both. TANDEM_E2E_KEEP=1 keeps the folder (server log, data, mails).
 */

export interface E2eState {
  dir: string;
  server: ChildProcess;
  smtp: SMTPServer;
}
declare global {
  var tandemE2e: E2eState | undefined;
}

const root = path.resolve(import.meta.dirname, '..');

export default async function globalSetup(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-e2e-'));
  const mailFile = path.join(dir, 'mails.json');
  fs.writeFileSync(mailFile, '[]');

  const smtp = captureSmtp(mailFile);
  const smtpPort = await listenOnFreePort(
    (port) =>
      new Promise<void>((ok, fail) => {
        smtp.once('error', fail);
        smtp.listen(port, '127.0.0.1', () => {
          smtp.off('error', fail);
          ok();
        });
      }),
  );

  // Serve a copy of the web build: another build of apps/web/dist during the run (a developer, a
  // bundle report) would otherwise swap the files under the browser (missing chunks, no index.html).
  const builtWeb = path.join(root, 'apps/web/dist');
  const webDist = path.join(dir, 'web');
  if (fs.existsSync(builtWeb)) fs.cpSync(builtWeb, webDist, { recursive: true });

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const log = fs.openSync(path.join(dir, 'server.log'), 'a');
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    stdio: ['ignore', log, log],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, 'data'),
      ...(fs.existsSync(webDist) ? { WEB_DIST: webDist } : {}),
      DATABASE_URL: '',
      PUBLIC_URL: baseUrl,
      SETUP_CODE: E2E_SETUP_CODE,
      PASSWORD_COST: '10',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtpPort),
      SMTP_SECURE: 'false',
      SMTP_USER: '',
      SMTP_PASS: '',
      SMTP_FROM: 'Tandem <tandem@e2e.example.com>',
    },
  });
  globalThis.tandemE2e = { dir, server, smtp };

  try {
    await waitUntilServing(baseUrl, server, 120_000);
  } catch (e) {
    const output = fs.readFileSync(path.join(dir, 'server.log'), 'utf8');
    server.kill('SIGKILL');
    await new Promise<void>((r) => smtp.close(() => r()));
    throw new Error(`${e instanceof Error ? e.message : String(e)}\n--- server log (${dir}) ---\n${output}`);
  }

  process.env.TANDEM_E2E_BASE_URL = baseUrl;
  process.env.TANDEM_E2E_MAIL_FILE = mailFile;
  process.env.TANDEM_E2E_SMTP_PORT = String(smtpPort);
  process.env.TANDEM_E2E_DIR = dir;
  console.log(`e2e: server on ${baseUrl} (PGlite in ${dir}/data), SMTP capture on 127.0.0.1:${smtpPort}`);
}

function captureSmtp(mailFile: string): SMTPServer {
  return new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', callback);
      stream.on('end', () => {
        try {
          const parsed = parseMail(Buffer.concat(chunks).toString('utf8'));
          const mail: CapturedMail = {
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: parsed.from || (session.envelope.mailFrom ? session.envelope.mailFrom.address : ''),
            subject: parsed.subject,
            text: parsed.text,
            receivedAt: new Date().toISOString(),
          };
          const all = JSON.parse(fs.readFileSync(mailFile, 'utf8')) as CapturedMail[];
          all.push(mail);
          // Write then rename, so a spec never reads half a file.
          fs.writeFileSync(`${mailFile}.tmp`, JSON.stringify(all, null, 2));
          fs.renameSync(`${mailFile}.tmp`, mailFile);
          callback();
        } catch (e) {
          callback(e instanceof Error ? e : new Error(String(e)));
        }
      });
    },
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Listens on a free port, trying again if another process takes the port in between. */
async function listenOnFreePort(listen: (port: number) => Promise<unknown>): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      await listen(port);
      return port;
    } catch (e) {
      if (attempt >= 5) throw e;
    }
  }
}

async function waitUntilServing(baseUrl: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: string | null = null;
  server.once(
    'exit',
    (code, signal) => (exited = `the server exited early (code ${code}, signal ${signal})`),
  );
  while (Date.now() < deadline) {
    if (exited) throw new Error(exited);
    try {
      const res = await fetch(`${baseUrl}/api/public/has_user`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer on ${baseUrl} within ${timeoutMs / 1000} s`);
}
