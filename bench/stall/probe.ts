/**
 * The switch's side of the stall benchmark, in its own process: route calls back to back on N
 * keep-alive connections (POST /api/switch/route) and a health ping every 10 ms on one more
 * (GET /api/health), until told to stop. Each request is counted in the phase it started in; the
 * parent names phases on stdin ("phase <name>") and ends with "stop", then this prints one JSON
 * line: per phase, the route calls' rate, p50, p99 and worst wait, the pings' p99 and worst, and
 * the probe's own CPU use (a probe that uses a whole core is the limit, not the server).
 *
 * The route calls go on raw keep-alive sockets by default (BENCH_PROBE_CLIENT=raw): each request's
 * bytes made once, the answer read by its Content-Length. A switch sends from its own machine; on
 * the benchmark's two cores, Node's HTTP client spent about as much CPU per call as the server's
 * route handler, so the probe's own share of the CPU was what its rate measured. `http` keeps the
 * earlier client (Node's http.request) for comparison.
 *   usage: probe.ts BASE_URL SWITCH_KEY BODIES_JSON_FILE CONNECTIONS
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import readline from 'node:readline';

const [base, key, bodiesFile, connText] = process.argv.slice(2);
if (!base || !key || !bodiesFile)
  throw new Error('usage: probe.ts BASE_URL SWITCH_KEY BODIES_FILE CONNECTIONS');
const connections = Number(connText ?? 4);
const bodies = (JSON.parse(fs.readFileSync(bodiesFile, 'utf8')) as unknown[]).map((b) => JSON.stringify(b));
const target = new URL(base);
const routeAgent = new http.Agent({ keepAlive: true, maxSockets: connections });
const CLIENT = process.env.BENCH_PROBE_CLIENT ?? 'raw';
const routePath = target.pathname.replace(/\/$/, '') + '/switch/route';
/** Each route body as the whole request's bytes (raw client). */
const requests = bodies.map((b) =>
  Buffer.from(
    `POST ${routePath} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: application/json\r\n` +
      `X-Switch-Key: ${key}\r\nContent-Length: ${Buffer.byteLength(b)}\r\n\r\n${b}`,
  ),
);
const pingAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });

interface Phase {
  name: string;
  started: number;
  ended: number;
  route: number[];
  routeFailed: number;
  health: number[];
  healthFailed: number;
  /** process.cpuUsage() when the phase began, and its total (user + system) µs at the end. */
  cpuAt: NodeJS.CpuUsage;
  cpuUs: number;
  /** The first waits over SLOW_MS: [ms into the phase, wait, what], to line up with the server's work. */
  slow: [number, number, string][];
}
const SLOW_MS = 100;
function note(phase: Phase, t0: number, wait: number, what: string): void {
  if (wait > SLOW_MS && phase.slow.length < 20)
    phase.slow.push([Math.round(t0 - phase.started), Math.round(wait), what]);
}
const phases: Phase[] = [];
let current: Phase | null = null;
let running = true;

function request(agent: http.Agent, method: string, path: string, body?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname.replace(/\/$/, '') + path,
        method,
        agent,
        headers: body ? { 'content-type': 'application/json', 'x-switch-key': key! } : {},
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200));
      },
    );
    req.on('error', () => resolve(false));
    req.end(body);
  });
}

/**
 * One keep-alive connection that sends a request's bytes and reads the answer by its status line
 * and Content-Length (the route API answers with both); reconnects when the server closes it.
 */
function rawConnection(): (bytes: Buffer) => Promise<boolean> {
  let socket: net.Socket | null = null;
  let buffered: Buffer = Buffer.alloc(0);
  let waiting: ((good: boolean) => void) | null = null;
  const finish = (good: boolean) => {
    const w = waiting;
    waiting = null;
    w?.(good);
  };
  const open = () => {
    const s = net.connect({ host: target.hostname, port: Number(target.port) });
    s.setNoDelay(true);
    s.on('data', (d: Buffer) => {
      buffered = buffered.length ? Buffer.concat([buffered, d]) : d;
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffered.subarray(0, end).toString('latin1');
      const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (buffered.length < end + 4 + length) return;
      buffered = buffered.subarray(end + 4 + length);
      finish(head.startsWith('HTTP/1.1 200'));
    });
    const closed = () => {
      if (socket === s) socket = null;
      buffered = Buffer.alloc(0);
      finish(false);
    };
    s.on('error', closed);
    s.on('close', closed);
    return s;
  };
  return (bytes) =>
    new Promise((resolve) => {
      waiting = resolve;
      socket ??= open();
      socket.write(bytes);
    });
}

async function routeWorker(offset: number): Promise<void> {
  const send = CLIENT === 'raw' ? rawConnection() : null;
  for (let n = offset; running; n += connections) {
    const phase = current;
    const t0 = performance.now();
    const good = send
      ? await send(requests[n % requests.length]!)
      : await request(routeAgent, 'POST', '/switch/route', bodies[n % bodies.length]);
    if (!phase) continue;
    const wait = performance.now() - t0;
    phase.route.push(wait);
    note(phase, t0, wait, 'route');
    if (!good) phase.routeFailed++;
  }
}

async function pinger(): Promise<void> {
  while (running) {
    const phase = current;
    const t0 = performance.now();
    const good = await request(pingAgent, 'GET', '/health');
    if (phase) {
      const wait = performance.now() - t0;
      phase.health.push(wait);
      note(phase, t0, wait, 'health');
      if (!good) phase.healthFailed++;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : 0;
const r1 = (x: number) => Math.round(x * 10) / 10;

function summary(p: Phase) {
  const route = [...p.route].sort((a, b) => a - b);
  const health = [...p.health].sort((a, b) => a - b);
  const seconds = (p.ended - p.started) / 1000;
  return {
    phase: p.name,
    seconds: r1(seconds),
    route: {
      calls: route.length,
      failed: p.routeFailed,
      rps: Math.round(route.length / seconds),
      p50_ms: r1(pct(route, 0.5)),
      p99_ms: r1(pct(route, 0.99)),
      max_ms: r1(route[route.length - 1] ?? 0),
    },
    health: {
      pings: health.length,
      failed: p.healthFailed,
      p99_ms: r1(pct(health, 0.99)),
      max_ms: r1(health[health.length - 1] ?? 0),
    },
    /** The probe's CPU use in the phase, in cores (1 = a whole core). */
    probe_cpu: Math.round(p.cpuUs / 1e4 / seconds) / 100,
    slow: p.slow,
  };
}

const workers = [...Array.from({ length: connections }, (_, i) => routeWorker(i)), pinger()];
const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const now = performance.now();
  if (current) {
    current.ended = now;
    const used = process.cpuUsage(current.cpuAt);
    current.cpuUs = used.user + used.system;
  }
  if (line.startsWith('phase ')) {
    current = {
      name: line.slice(6),
      started: now,
      ended: now,
      route: [],
      routeFailed: 0,
      health: [],
      healthFailed: 0,
      cpuAt: process.cpuUsage(),
      cpuUs: 0,
      slow: [],
    };
    phases.push(current);
    return;
  }
  if (line === 'stop') {
    current = null;
    running = false;
    void Promise.all(workers).then(() => {
      process.stdout.write(JSON.stringify(phases.filter((p) => p.name !== 'warm-up').map(summary)) + '\n');
      routeAgent.destroy();
      pingAgent.destroy();
      process.exit(0);
    });
  }
});
