import { api, ErrorCode } from '@tandem/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { AppError } from '../../http/errors';

type Host = api.trunks.TrunkHost;

/**
 * Ingress trunks are identified by the source address of a call, so a host (IP or name) with the
 * same port (or both without one) may belong to one ingress trunk only. Refused with the name of
 * the trunk that already has it, on the field of the host entry.
 */
export async function checkIngressHostsFree(
  db: Db,
  hosts: readonly Pick<Host, 'host' | 'port'>[],
  exceptTrunkId: number | null,
  /** The field of the i-th host in the caller's body (a DID trunk's hosts are plain strings). */
  fieldOf: (i: number) => string = (i) => `hosts.${i}.host`,
): Promise<void> {
  if (!hosts.length) return;
  let q = db
    .selectFrom('trunk_hosts as h')
    .innerJoin('trunks as t', 't.trunk_id', 'h.trunk_id')
    .select(['h.host', 'h.port', 't.name'])
    .where('t.direction', '=', 'ingress')
    .where(
      sql<string>`lower(h.host)`,
      'in',
      hosts.map((h) => h.host.toLowerCase()),
    );
  if (exceptTrunkId !== null) q = q.where('t.trunk_id', '!=', exceptTrunkId);
  const taken = await q.execute();
  const owner = new Map(taken.map((r) => [api.trunks.hostKey({ host: r.host, port: r.port }), r.name]));
  for (const [i, h] of hosts.entries()) {
    const key = api.trunks.hostKey(h);
    const name = owner.get(key);
    if (name !== undefined) {
      throw new AppError(ErrorCode.conflict, 'hostInUse', [key, name], 409, {
        [fieldOf(i)]: { key: 'hostInUse', params: [key, name] },
      });
    }
  }
}

/** Replaces a trunk's hosts (order kept). */
export async function writeHosts(db: Db, trunkId: number, hosts: readonly Host[]): Promise<void> {
  await db.deleteFrom('trunk_hosts').where('trunk_id', '=', trunkId).execute();
  if (!hosts.length) return;
  await db
    .insertInto('trunk_hosts')
    .values(
      hosts.map((h, i) => ({
        trunk_id: trunkId,
        host_type: h.host_type,
        host: h.host,
        port: h.port,
        netmask: h.netmask ?? 32,
        ordering: i,
      })),
    )
    .execute();
}
