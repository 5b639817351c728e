import type { Services } from '../../services';
import { LiveState } from '../routing/live-state';
import { SnapshotService } from '../routing/snapshot-service';
import { foldSummaries } from '../stats/summaries';
import { CdrIngest } from './ingest';

/**
 * A CDR ingest outside the server (the operator CLI's import-cdrs and seed-demo): its own routing
 * engine snapshot, built from the database now, rates CDRs exactly as the server's does, and its own
 * summary fold (as the server's CDR module: soon after each batch). Close it when done: stops the
 * engine's configuration watch and folds what is still queued, so the summaries are complete.
 */
export async function openStandaloneIngest(
  s: Services,
): Promise<{ ingest: CdrIngest; engine: SnapshotService; close(): Promise<void> }> {
  const engine = new SnapshotService(s, 0);
  const live = new LiveState();
  engine.start();
  await engine.idle();
  if (engine.snapshot === null) {
    engine.stop();
    const why = engine.status().last_error ?? 'unknown error';
    throw new Error(`The routing engine's snapshot could not be built: ${why}`);
  }
  const ingest = new CdrIngest(s, engine, live);
  ingest.folder.start();
  return {
    ingest,
    engine,
    close: async () => {
      engine.stop();
      await ingest.folder.stop();
      await foldSummaries(s.db);
    },
  };
}
