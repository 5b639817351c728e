import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { implementCrud, type CrudTable } from '../../http/crud';
import { duplicate, invalidField } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { noteWriter, writerOf } from '../routing/common';
import { uploadBlockList } from './upload-list';

const x = api.routingExtras;
const like = (v: string) => `${v.replace(/[\\%_]/g, '')}%`;

/** 'a.b.c.d/n' -> address and prefix length (no '/': 32). */
export function splitCidr(ip: string): { ip: string; netmask: number } {
  const [address = ip, bits] = ip.split('/');
  return { ip: address, netmask: bits === undefined ? 32 : Number(bits) };
}

/**
 * The inbound media IP block list as a plain resource: Routing > Inbound Media IP Blocking and
 * Monitoring > Media IP Blocking serve the same table (each under its own permission).
 */
export function mediaIpBlockTable(s: Services): CrudTable<typeof x.mediaIpBlock> {
  return {
    table: 'inbound_media_ip_blocks',
    id: 'id',
    entity: 'inbound_media_ip_block',
    label: 'IP',
    select: (db) =>
      db
        .selectFrom('inbound_media_ip_blocks as b')
        .select(['b.id', 'b.ip', 'b.note', 'b.expires_at', 'b.created_by', 'b.created_at'])
        .select(sql<boolean>`coalesce(b.expires_at <= now(), false)`.as('expired')),
    selectId: 'b.id',
    sortable: { ip: 'b.ip', expires_at: 'b.expires_at', created_at: 'b.created_at', id: 'b.id' },
    defaultSort: 'created_at',
    unique: [{ column: 'ip', field: 'ip' }],
    filter: (qb, q) => {
      let r = qb;
      if (q.ip) r = r.where(sql.ref('b.ip'), 'like', like(q.ip));
      if (q.status === 'expired') r = r.where(sql<boolean>`b.expires_at <= now()`);
      if (q.status === 'active') r = r.where(sql<boolean>`(b.expires_at IS NULL OR b.expires_at > now())`);
      return r;
    },
    validate: async (_trx, body, _before, ctx) => {
      noteWriter(body, ctx);
    },
    toColumns: (body, before) => {
      const out: Record<string, unknown> = { ...body };
      if ('expires_at' in body) out.expires_at = body.expires_at ? new Date(body.expires_at as string) : null;
      if (before === null) out.created_by = writerOf(body);
      return out;
    },
    afterWrite: () => s.configChanged.notify(),
  };
}

/** The media IP list's CSV/XLSX upload (both screens). */
export const uploadMediaIpBlocks =
  (s: Services) =>
  (ctx: unknown): ReturnType<typeof uploadBlockList> =>
    uploadBlockList(s, ctx as never, {
      entity: 'inbound_media_ip_block',
      columns: {
        ip: ['ip_address', 'address', 'cidr', 'network', 'host'],
        note: ['notes', 'comment', 'description', 'reason'],
        expires_at: ['expires', 'expiry', 'expire_at', 'expiration'],
      },
      schema: x.mediaIpBlock.create.body!,
      input: (v) => ({ ip: v.ip ?? '', note: v.note ?? '', expires_at: v.expires_at || null }),
      row: (p) => {
        const b = p as { ip: string; note: string; expires_at: string | null };
        return {
          row: { ip: b.ip, note: b.note, expires_at: b.expires_at ? new Date(b.expires_at) : null },
          key: b.ip,
          label: 'IP',
          value: b.ip,
        };
      },
      existing: async (trx, keys) =>
        new Set(
          (
            await trx.selectFrom('inbound_media_ip_blocks').select('ip').where('ip', 'in', keys).execute()
          ).map((r) => r.ip),
        ),
      insert: async (trx, rows: { ip: string; note: string; expires_at: Date | null }[], user) => {
        await trx
          .insertInto('inbound_media_ip_blocks')
          .values(rows.map((r) => ({ ...r, created_by: user })))
          .execute();
      },
    });

/**
 * Routing > Inbound Media IP Blocking and Routing > STIOCN Block List: plain lists with a form, a
 * CSV/XLSX upload, and (media IP) the list in force for the SIP proxy or media relay to poll.
 */
export function registerBlockLists(app: FastifyInstance, s: Services): void {
  // ---------------------------------------------------------------- inbound media IP blocking
  // (the same list is Monitoring > Media IP Blocking, under the monitoring permission)
  implementCrud(app, s, x.mediaIpBlock, mediaIpBlockTable(s));
  implement(app, s, x.uploadMediaIpBlocks, uploadMediaIpBlocks(s));

  implement(app, s, x.switchMediaIpBlocks, async () => {
    const rows = await s.db
      .selectFrom('inbound_media_ip_blocks')
      .select(['ip', 'expires_at'])
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date())]))
      .orderBy('ip')
      .execute();
    return {
      items: rows.map((r) => ({ ...splitCidr(r.ip), expires_at: r.expires_at?.toISOString() ?? null })),
    };
  });

  // ---------------------------------------------------------------- STIOCN block list
  const normalize = (kind: 'ocn' | 'origid', value: string) =>
    kind === 'ocn' ? value.trim().toUpperCase() : value.trim().toLowerCase();
  const fitsKind = (kind: 'ocn' | 'origid', value: string) =>
    (kind === 'ocn' ? x.OCN_PATTERN : x.ORIGID_PATTERN).test(value.trim());

  implementCrud(app, s, x.ocnBlock, {
    table: 'stir_ocn_blocks',
    id: 'id',
    entity: 'stir_ocn_block',
    label: 'OCN',
    select: (db) =>
      db
        .selectFrom('stir_ocn_blocks as b')
        .select(['b.id', 'b.kind', 'b.value', 'b.note', 'b.created_by', 'b.created_at']),
    selectId: 'b.id',
    sortable: { value: 'b.value', kind: 'b.kind', created_at: 'b.created_at', id: 'b.id' },
    defaultSort: 'value',
    filter: (qb, q) => {
      let r = qb;
      if (q.kind) r = r.where(sql.ref('b.kind'), '=', q.kind);
      if (q.value) r = r.where(sql`upper(b.value)`, 'like', like(q.value.toUpperCase()));
      return r;
    },
    validate: async (trx, body, before, ctx) => {
      noteWriter(body, ctx);
      const v = { ...(before ?? {}), ...body } as { kind: 'ocn' | 'origid'; value: string };
      if (!fitsKind(v.kind, v.value)) throw invalidField('value', 'invalidOcn', ['value']);
      const value = normalize(v.kind, v.value);
      let q = trx
        .selectFrom('stir_ocn_blocks')
        .select('id')
        .where('kind', '=', v.kind)
        .where('value', '=', value);
      if (before) q = q.where('id', '!=', Number(before.id));
      if (await q.executeTakeFirst()) throw duplicate('value', v.kind === 'ocn' ? 'OCN' : 'origid', value);
    },
    toColumns: (body, before) => {
      const out: Record<string, unknown> = { ...body };
      const kind = (body.kind ?? before?.kind) as 'ocn' | 'origid';
      if ('value' in body) out.value = normalize(kind, body.value as string);
      else if ('kind' in body && before) out.value = normalize(kind, before.value as string);
      if (before === null) out.created_by = writerOf(body);
      return out;
    },
    afterWrite: () => s.configChanged.notify(),
  });

  implement(app, s, x.uploadOcnBlocks, async (ctx) =>
    uploadBlockList(s, ctx as never, {
      entity: 'stir_ocn_block',
      columns: {
        value: ['ocn', 'origid', 'carrier_ocn', 'code'],
        kind: ['type'],
        note: ['notes', 'comment', 'description', 'carrier', 'name'],
      },
      schema: x.ocnBlock.create.body!,
      input: (v) => {
        const value = v.value ?? '';
        // Without a kind column, the value's shape tells: a UUID is an origid.
        const kind = (v.kind || (x.ORIGID_PATTERN.test(value) ? 'origid' : 'ocn')).toLowerCase();
        return { kind, value, note: v.note ?? '' };
      },
      row: (p) => {
        const b = p as { kind: 'ocn' | 'origid'; value: string; note: string };
        if (!fitsKind(b.kind, b.value)) return { line: 0, key: 'invalidOcn', params: ['value'] };
        const value = normalize(b.kind, b.value);
        return {
          row: { kind: b.kind, value, note: b.note },
          key: `${b.kind}:${value}`,
          label: b.kind === 'ocn' ? 'OCN' : 'origid',
          value,
        };
      },
      existing: async (trx, keys) =>
        new Set(
          (
            await trx
              .selectFrom('stir_ocn_blocks')
              .select(['kind', 'value'])
              .where(sql<string>`kind || ':' || value`, 'in', keys)
              .execute()
          ).map((r) => `${r.kind}:${r.value}`),
        ),
      insert: async (trx, rows: { kind: 'ocn' | 'origid'; value: string; note: string }[], user) => {
        await trx
          .insertInto('stir_ocn_blocks')
          .values(rows.map((r) => ({ ...r, created_by: user })))
          .execute();
      },
    }),
  );
}
