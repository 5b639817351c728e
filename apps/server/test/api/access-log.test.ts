import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';

/** Issue 16 point 4: no line per request by default; ACCESS_LOG=true gives one compact line each. */
describe('request logging', { timeout: 120_000 }, () => {
  let h: Harness | null = null;
  afterEach(async () => {
    await h?.close();
    h = null;
  });

  const start = async (env: Record<string, string>) => {
    const lines: Record<string, unknown>[] = [];
    h = await startHarness(
      { LOG_LEVEL: 'info', ...env },
      { logStream: { write: (l) => void lines.push(JSON.parse(l) as Record<string, unknown>) } },
    );
    lines.length = 0; // start-up lines
    return lines;
  };

  it('logs no line per request by default', async () => {
    const lines = await start({});
    for (let i = 0; i < 5; i++) expect((await h!.call('GET', '/api/health')).status).toBe(200);
    await h!.call('GET', '/api/user/list'); // refused: not signed in
    expect(lines.filter((l) => l.url !== undefined || /request/.test(String(l.msg)))).toEqual([]);
  });

  it('ACCESS_LOG=true: one line per request with method, URL, status and time', async () => {
    const lines = await start({ ACCESS_LOG: 'true' });
    await h!.call('GET', '/api/health');
    await h!.call('GET', '/api/user/list');
    const access = lines.filter((l) => l.msg === 'request');
    expect(access.map((l) => [l.method, l.url, l.status])).toEqual([
      ['GET', '/api/health', 200],
      ['GET', '/api/user/list', 401],
    ]);
    expect(typeof access[0]!.ms).toBe('number');
    expect(lines.filter((l) => /incoming request|request completed/.test(String(l.msg)))).toEqual([]);
  });
});
