import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import dgram from 'node:dgram';
import { randomBytes } from 'node:crypto';

/** Processes this test started, stopped at the end whatever happened. */
export class Procs {
  private readonly list: { name: string; p: ChildProcess; out: string[] }[] = [];

  start(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
    const p = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: string[] = [];
    const keep = (b: Buffer) => {
      out.push(b.toString());
      if (out.length > 4000) out.splice(0, out.length - 4000);
    };
    p.stdout?.on('data', keep);
    p.stderr?.on('data', keep);
    this.list.push({ name, p, out });
    return p;
  }

  /** The last output of a process, for failure messages. */
  output(name: string, max = 6000): string {
    return this.list
      .filter((x) => x.name === name)
      .map((x) => x.out.join(''))
      .join('\n')
      .slice(-max);
  }

  async stop(name: string, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    for (const x of this.list.filter((y) => y.name === name)) await stopOne(x.p, signal);
  }

  async stopAll(): Promise<void> {
    for (const x of this.list.reverse()) await stopOne(x.p, 'SIGTERM');
  }
}

async function stopOne(p: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return;
  const done = new Promise<void>((resolve) => p.once('exit', () => resolve()));
  p.kill(signal);
  const t = setTimeout(() => p.kill('SIGKILL'), 5000);
  await done;
  clearTimeout(t);
}

/** The reference configuration (switch/kamailio/kamailio.cfg). */
export const KAMAILIO_CFG = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '../kamailio/kamailio.cfg',
);

/**
 * Kamailio's shared memory (all processes) and private memory (each process), in MB, as
 * docs/switch.md tells operators to start it. Debian's default of 64 MB shared runs out near 300 new
 * calls a second (each transaction lingers a few seconds after it ends, with its route answer and
 * dialog variables), and Kamailio then refuses calls ("could not allocate shared memory").
 */
const SHM_MB = '512';
const PKG_MB = '16';

/**
 * Starts Kamailio with the reference configuration in the foreground (logs to stderr, UTC clock),
 * pointed at Tandem on `tandemPort` with `key`, listening on `listen` (udp:ip:port); `defines` are
 * further `-A` settings (NAME=value).
 */
export function startKamailio(
  procs: Procs,
  name: string,
  o: { tandemPort: number; key: string; listen: string; defines?: readonly string[] },
): ChildProcess {
  const runDir = mkdtempSync(path.join(os.tmpdir(), 'tandem-kamailio-'));
  const defines = [
    `TANDEM_URL="http://127.0.0.1:${o.tandemPort}"`,
    `SWITCH_KEY="${o.key}"`,
    `LISTEN_ADDR=${o.listen}`,
    ...(o.defines ?? []),
  ];
  return procs.start(
    name,
    'kamailio',
    [
      '-f',
      KAMAILIO_CFG,
      '-m',
      SHM_MB,
      '-M',
      PKG_MB,
      '-DD',
      '-E',
      '-Y',
      runDir,
      ...defines.flatMap((d) => ['-A', d]),
    ],
    { ...process.env, TZ: 'UTC' },
  );
}

/** Runs a process to its end: exit code and output. */
export function run(
  cmd: string,
  args: string[],
  timeoutMs = 120_000,
): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (b: Buffer) => (out += b.toString()));
    p.stderr.on('data', (b: Buffer) => (out += b.toString()));
    const t = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
    p.on('error', reject);
    p.on('exit', (code) => {
      clearTimeout(t);
      resolve({ code: code ?? -1, out });
    });
  });
}

/**
 * One INVITE sent from `fromIp` over UDP; resolves with the final answer's status code and reason
 * (and acknowledges it, as a caller does). Used for the calls that must be refused, where sipp's
 * scenarios would only say "unexpected message"; a call answered all the same is hung up at once
 * (ACK and BYE along its Record-Route), so it does not stay up and count against later tests.
 */
export function inviteOnce(
  fromIp: string,
  proxy: { ip: string; port: number },
  dnis: string,
  ani = '15550001111',
  timeoutMs = 5000,
): Promise<{ code: number; reason: string }> {
  return new Promise((resolve, reject) => {
    const sock = dgram.createSocket('udp4');
    const callId = `${randomBytes(8).toString('hex')}@${fromIp}`;
    const branch = `z9hG4bK${randomBytes(6).toString('hex')}`;
    const tag = randomBytes(4).toString('hex');
    const timer = setTimeout(() => {
      sock.close();
      reject(new Error(`no final answer to the INVITE to ${dnis} within ${timeoutMs} ms`));
    }, timeoutMs);
    sock.on('message', (msg) => {
      const text = msg.toString();
      const m = /^SIP\/2\.0 (\d{3}) ([^\r\n]*)/.exec(text);
      if (!m || Number(m[1]) < 200) return;
      const code = Number(m[1]);
      const toLine = /^To:.*$/im.exec(text)?.[0] ?? `To: <sip:${dnis}@${proxy.ip}>`;
      const inDialog = (method: string, cseq: number, via: string): string => {
        // an answered call: its requests go to the callee's Contact along the Record-Route
        const routes = [...text.matchAll(/^Record-Route:\s*(.*)$/gim)].map((x) => x[1]!.trim());
        const contact = /^Contact:\s*<?([^>;\r\n]+)/im.exec(text)?.[1];
        const target = code < 300 && contact ? contact : `sip:${dnis}@${proxy.ip}:${proxy.port}`;
        return [
          `${method} ${target} SIP/2.0`,
          `Via: SIP/2.0/UDP ${fromIp}:${sock.address().port};branch=${via}`,
          ...(code < 300 && routes.length ? [`Route: ${routes.join(', ')}`] : []),
          `From: <sip:${ani}@${fromIp}>;tag=${tag}`,
          toLine,
          `Call-ID: ${callId}`,
          `CSeq: ${cseq} ${method}`,
          'Max-Forwards: 70',
          'Content-Length: 0',
          '',
          '',
        ].join('\r\n');
      };
      const done = () => {
        clearTimeout(timer);
        sock.close();
        resolve({ code, reason: m[2]! });
      };
      // the ACK of a failure is part of the INVITE transaction (same branch); of a 2xx, a new one
      const ackBranch = code < 300 ? `z9hG4bK${randomBytes(6).toString('hex')}` : branch;
      sock.send(inDialog('ACK', 1, ackBranch), proxy.port, proxy.ip, () => {
        if (code >= 300) return done();
        const bye = inDialog('BYE', 2, `z9hG4bK${randomBytes(6).toString('hex')}`);
        sock.send(bye, proxy.port, proxy.ip, () => setTimeout(done, 200));
      });
    });
    sock.bind(0, fromIp, () => {
      const port = sock.address().port;
      const invite = [
        `INVITE sip:${dnis}@${proxy.ip}:${proxy.port} SIP/2.0`,
        `Via: SIP/2.0/UDP ${fromIp}:${port};branch=${branch};rport`,
        `From: <sip:${ani}@${fromIp}>;tag=${tag}`,
        `To: <sip:${dnis}@${proxy.ip}>`,
        `Call-ID: ${callId}`,
        'CSeq: 1 INVITE',
        `Contact: <sip:${ani}@${fromIp}:${port}>`,
        'Max-Forwards: 70',
        'Content-Length: 0',
        '',
        '',
      ].join('\r\n');
      sock.send(invite, proxy.port, proxy.ip);
    });
  });
}

/** Waits until a UDP SIP server answers OPTIONS (it is up). */
export async function waitForSip(proxy: { ip: string; port: number }, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const up = await new Promise<boolean>((resolve) => {
      const sock = dgram.createSocket('udp4');
      const t = setTimeout(() => {
        sock.close();
        resolve(false);
      }, 300);
      sock.on('message', () => {
        clearTimeout(t);
        sock.close();
        resolve(true);
      });
      sock.bind(0, '127.0.0.1', () => {
        const port = sock.address().port;
        const msg = [
          `OPTIONS sip:ping@${proxy.ip}:${proxy.port} SIP/2.0`,
          `Via: SIP/2.0/UDP 127.0.0.1:${port};branch=z9hG4bK${randomBytes(6).toString('hex')}`,
          `From: <sip:ping@127.0.0.1>;tag=${randomBytes(4).toString('hex')}`,
          `To: <sip:ping@${proxy.ip}>`,
          `Call-ID: ${randomBytes(8).toString('hex')}`,
          'CSeq: 1 OPTIONS',
          'Max-Forwards: 70',
          'Content-Length: 0',
          '',
          '',
        ].join('\r\n');
        sock.send(msg, proxy.port, proxy.ip);
      });
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no SIP answer from ${proxy.ip}:${proxy.port} within ${timeoutMs} ms`);
}
