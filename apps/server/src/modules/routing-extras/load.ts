import type { DigitMapConfig, MediaIpBlockConfig, OcnBlockConfig } from '@tandem/domain';
import type { Db } from '../../db/connection';
import { splitCidr } from './block-lists';

export interface RoutingExtrasConfig {
  digit_maps: DigitMapConfig[];
  /** trunk_id -> digital_map_id */
  trunk_maps: Map<number, number>;
  media_ip_blocks: MediaIpBlockConfig[];
  ocn_blocks: OcnBlockConfig[];
}

/**
 * The routing extras as the engine's configuration (the routing snapshot loader calls this with
 * its other queries): digital maps with their items in order and the trunks using them, the
 * inbound media IP blocks (expired ones too: the decision compares the expiry with the call time,
 * so an entry stops blocking without a rebuild) and the STIOCN block list.
 */
export async function loadRoutingExtras(db: Db): Promise<RoutingExtrasConfig> {
  const [maps, items, trunks, ips, ocns] = await Promise.all([
    db.selectFrom('digital_maps').select(['digital_map_id', 'name']).execute(),
    db
      .selectFrom('digital_map_items')
      .select(['id', 'digital_map_id', 'field', 'match', 'pattern', 'action', 'strip_count', 'digits'])
      .orderBy('digital_map_id')
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db.selectFrom('digital_map_trunks').select(['trunk_id', 'digital_map_id']).execute(),
    db.selectFrom('inbound_media_ip_blocks').select(['id', 'ip', 'note', 'expires_at']).execute(),
    db.selectFrom('stir_ocn_blocks').select(['id', 'kind', 'value', 'note']).execute(),
  ]);
  const itemsOf = new Map<number, DigitMapConfig['items'][number][]>();
  for (const i of items) {
    const list = itemsOf.get(i.digital_map_id) ?? [];
    list.push({
      item_id: i.id,
      field: i.field,
      match: i.match,
      pattern: i.pattern,
      action: i.action,
      strip_count: i.strip_count,
      digits: i.digits,
    });
    itemsOf.set(i.digital_map_id, list);
  }
  return {
    digit_maps: maps.map((m) => ({
      digital_map_id: m.digital_map_id,
      name: m.name,
      items: itemsOf.get(m.digital_map_id) ?? [],
    })),
    trunk_maps: new Map(trunks.map((t) => [t.trunk_id, t.digital_map_id])),
    media_ip_blocks: ips.map((b) => ({
      block_id: b.id,
      ...splitCidr(b.ip),
      note: b.note,
      expires_at: b.expires_at?.getTime() ?? null,
    })),
    ocn_blocks: ocns.map((b) => ({ block_id: b.id, kind: b.kind, value: b.value, note: b.note })),
  };
}
