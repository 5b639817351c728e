import type { Services } from '../../services';
import { LiveState } from '../routing/live-state';
import { SnapshotService } from '../routing/snapshot-service';
import { CdrIngest } from './ingest';

/**
 * A CDR ingest outside the server (the operator CLI's import-cdrs and seed-demo): its own routing
 * engine snapshot, built from the database now, rates CDRs exactly as the server's does. Close it
 * when done (stops the engine's configuration watch).
 */
export async function openStandaloneIngest(
  s: Services,
): Promise<{ ingest: CdrIngest; engine: SnapshotService; close(): void }> {
  const engine = new SnapshotService(s, 0);
  const live = new LiveState();
  engine.start();
  await engine.idle();
  if (engine.snapshot === null) {
    engine.stop();
    const why = engine.status().last_error ?? 'unknown error';
    throw new Error(`The routing engine's snapshot could not be built: ${why}`);
  }
  return { ingest: new CdrIngest(s, engine, live), engine, close: () => engine.stop() };
}
