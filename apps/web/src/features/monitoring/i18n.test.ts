import { api } from '@tandem/contract';
import { describe, expect, it } from 'vitest';
import { LIVE_KEEP, mergeEvents } from './liveEvents';
import { monitoringDictionaries } from './strings';

type Dict = { [k: string]: string | Dict };
const keys = (d: Dict, prefix = ''): string[] =>
  Object.entries(d).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`),
  );
const at = (d: Dict, key: string): unknown =>
  key.split('.').reduce<unknown>((o, k) => (o as Dict | undefined)?.[k], d);

describe('monitoring strings', () => {
  const { en, de, ch } = monitoringDictionaries as unknown as Record<'en' | 'de' | 'ch', Dict>;

  it('every English key exists, non-empty, in German and Chinese', () => {
    for (const k of keys(en)) {
      expect(typeof at(de, k) === 'string' && (at(de, k) as string).length > 0, `de ${k}`).toBe(true);
      expect(typeof at(ch, k) === 'string' && (at(ch, k) as string).length > 0, `ch ${k}`).toBe(true);
    }
    expect(keys(de).sort()).toEqual(keys(en).sort());
    expect(keys(ch).sort()).toEqual(keys(en).sort());
  });

  it('names every log event and e-mail target of the contract', () => {
    for (const e of api.monitoring.LOG_EVENTS) expect(at(en, `events.${e}`), e).toBeTruthy();
    for (const e of api.monitoring.EMAIL_TARGETS) expect(at(en, `emailTargets.${e}`), e).toBeTruthy();
  });
});

describe('live monitoring', () => {
  it('names every rule kind and connection state', () => {
    const { en } = monitoringDictionaries as unknown as Record<'en', Dict>;
    for (const k of api.monitoring.RULE_KINDS) expect(at(en, `live.kinds.${k}`), k).toBeTruthy();
    for (const c of ['connecting', 'live', 'reconnecting', 'polling', 'paused'])
      expect(at(en, `live.connection.${c}`), c).toBeTruthy();
  });

  it('merges events by id, newest first, without duplicates, keeping at most LIVE_KEEP', () => {
    const ev = (id: number) => ({ id }) as api.monitoring.LiveEventRow;
    const list = mergeEvents([ev(3), ev(1)], [ev(2), ev(3), ev(4)]);
    expect(list.map((e) => e.id)).toEqual([4, 3, 2, 1]);
    const many = mergeEvents(
      [],
      Array.from({ length: LIVE_KEEP + 5 }, (_, i) => ev(i + 1)),
    );
    expect(many).toHaveLength(LIVE_KEEP);
    expect(many[0]!.id).toBe(LIVE_KEEP + 5);
  });
});
