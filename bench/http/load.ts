/**
 * A bounded HTTP load generator, run in its own process so it does not share the server's event
 * loop: N keep-alive connections issue requests back to back until `count` requests or `seconds`
 * have passed. Prints one JSON line with throughput and latency percentiles.
 */
import http from 'node:http';

const [url, countText, secondsText, connText, token] = process.argv.slice(2);
if (!url) throw new Error('usage: load.ts URL COUNT SECONDS CONNECTIONS [TOKEN]');
const total = Number(countText ?? 20000);
const seconds = Number(secondsText ?? 10);
const connections = Number(connText ?? 16);
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const target = new URL(url);
const latencies: number[] = [];
let sent = 0;
let failed = 0;
const deadline = Date.now() + seconds * 1000;

function one(): Promise<void> {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const req = http.request(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method: 'GET', agent, headers: token ? { 'x-auth-token': token } : {} },
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
    req.end();
  });
}

async function worker() {
  while (sent < total && Date.now() < deadline) {
    sent++;
    await one();
  }
}

const start = Date.now();
await Promise.all(Array.from({ length: connections }, worker));
const elapsed = (Date.now() - start) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
console.log(JSON.stringify({ requests: latencies.length, failed, seconds: elapsed, rps: latencies.length / elapsed, p50_ms: pct(50), p99_ms: pct(99) }));
agent.destroy();
