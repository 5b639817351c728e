/**
 * A bounded HTTP load generator, run in its own process so it does not share the server's event
 * loop: N keep-alive connections issue requests back to back until `count` requests or `seconds`
 * have passed. Prints one JSON line with throughput and latency percentiles.
 * POST: LOAD_BODIES names a JSON file with an array of bodies (sent in turn), LOAD_HEADERS a JSON
 * object of extra headers.
 */
import fs from 'node:fs';
import http from 'node:http';

const [url, countText, secondsText, connText, token] = process.argv.slice(2);
if (!url) throw new Error('usage: load.ts URL COUNT SECONDS CONNECTIONS [TOKEN]');
const total = Number(countText ?? 20000);
const seconds = Number(secondsText ?? 10);
const connections = Number(connText ?? 16);
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const target = new URL(url);
const bodies = process.env.LOAD_BODIES
  ? (JSON.parse(fs.readFileSync(process.env.LOAD_BODIES, 'utf8')) as unknown[]).map((b) => JSON.stringify(b))
  : null;
const extraHeaders = process.env.LOAD_HEADERS
  ? (JSON.parse(process.env.LOAD_HEADERS) as Record<string, string>)
  : {};
const latencies: number[] = [];
let sent = 0;
let failed = 0;
const deadline = Date.now() + seconds * 1000;

function one(n: number): Promise<void> {
  return new Promise((resolve) => {
    const body = bodies ? bodies[n % bodies.length] : undefined;
    const headers: Record<string, string> = { ...extraHeaders, ...(token ? { 'x-auth-token': token } : {}) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const t0 = process.hrtime.bigint();
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: body === undefined ? 'GET' : 'POST',
        agent,
        headers,
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== 200) failed++;
          latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
          resolve();
        });
      },
    );
    req.on('error', () => {
      failed++;
      resolve();
    });
    req.end(body);
  });
}

async function worker() {
  while (sent < total && Date.now() < deadline) {
    await one(sent++);
  }
}

const start = Date.now();
await Promise.all(Array.from({ length: connections }, worker));
const elapsed = (Date.now() - start) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
console.log(
  JSON.stringify({
    requests: latencies.length,
    failed,
    seconds: elapsed,
    rps: latencies.length / elapsed,
    p50_ms: pct(50),
    p99_ms: pct(99),
    max_ms: latencies[latencies.length - 1] ?? 0,
  }),
);
agent.destroy();
