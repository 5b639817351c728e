import { migratedCluster } from './pglite-cluster';

/**
 * Once per run, before the workers start: the migrated PGlite cluster the files load (see
 * pglite-cluster.ts). Without it the first file of each worker made it at the same time, and on a
 * busy machine the first file's start-up hook timed out.
 */
export default async function setup(): Promise<void> {
  if (!process.env.DATABASE_URL) await migratedCluster();
}
