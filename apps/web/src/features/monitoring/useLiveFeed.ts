import { api } from '@tandem/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { authHeaders, call, urlOf } from '../../api/client';
import { readSse } from '../../lib/sse';
import { mergeEvents } from './liveEvents';

type LiveEvent = api.monitoring.LiveEventRow;
type LiveCalls = api.monitoring.LiveCalls;

/** `live`: pushed by the server (server-sent events); a number: refresh every N minutes (0: never). */
export type LiveMode = 'live' | (typeof api.monitoring.LIVE_REFRESH_MINUTES)[number];
/**
 * connecting: the stream is being opened; live: events arrive as they happen; reconnecting: the
 * stream broke, the page polls the summary until it is back; polling: refreshed every N minutes;
 * paused: no refresh (the Refresh button only).
 */
export type LiveConnection = 'connecting' | 'live' | 'reconnecting' | 'polling' | 'paused';

export interface LiveCounts {
  active_blocks: number;
  triggers_1h: number;
  triggers_24h: number;
  loops_1h: number;
}

/** While the stream is down, the summary is read this often. */
export const FALLBACK_POLL_MS = 10_000;
/** After an event, the counters are read again once things are quiet this long. */
const COUNTS_DEBOUNCE_MS = 1_000;
/** Reconnection waits 1 s, 2 s, 4 s ... up to this. */
const MAX_RETRY_MS = 30_000;

/**
 * The live monitoring feed: the summary once, then, in `live` mode, the server-sent-event stream
 * read with fetch (it carries the session header, which EventSource cannot). When the stream
 * fails, the summary is polled and the stream is opened again with backoff, from the last event
 * seen (`after_id`), so nothing is missed. Other modes read the summary every N minutes.
 */
export function useLiveFeed(mode: LiveMode) {
  const [events, setEvents] = useState<LiveEvent[]>([]);
  const [counts, setCounts] = useState<LiveCounts | null>(null);
  const [calls, setCalls] = useState<LiveCalls | null>(null);
  const [connection, setConnection] = useState<LiveConnection>('connecting');
  const [updatedAt, setUpdatedAt] = useState<Date | null>(null);
  const [loading, setLoading] = useState(false);
  const lastId = useRef(0);

  const addEvents = useCallback((added: LiveEvent[]) => {
    for (const e of added) lastId.current = Math.max(lastId.current, e.id);
    setEvents((list) => mergeEvents(list, added));
  }, []);

  /** Reads the summary; `quiet` for background reads (no toast, session errors still handled). */
  const refresh = useCallback(
    async (quiet = false) => {
      setLoading(true);
      try {
        const s = await call(api.monitoring.liveSummary, {}, { errorMode: 'inline', quiet });
        if (!s) return;
        addEvents(s.events);
        lastId.current = Math.max(lastId.current, s.last_id);
        setCounts({
          active_blocks: s.active_blocks,
          triggers_1h: s.triggers_1h,
          triggers_24h: s.triggers_24h,
          loops_1h: s.loops_1h,
        });
        setCalls(s.calls);
        setUpdatedAt(new Date());
      } catch {
        // shown by the client (unless quiet); the next read tries again
      } finally {
        setLoading(false);
      }
    },
    [addEvents],
  );

  useEffect(() => {
    let stopped = false;
    const timers: { poll?: ReturnType<typeof setInterval>; retry?: ReturnType<typeof setTimeout> } = {};
    let counter: ReturnType<typeof setTimeout> | undefined;
    let ctrl: AbortController | null = null;

    if (mode !== 'live') {
      setConnection(mode === 0 ? 'paused' : 'polling');
      void refresh();
      if (mode > 0) timers.poll = setInterval(() => void refresh(true), mode * 60_000);
      return () => clearInterval(timers.poll);
    }

    let failures = 0;
    const startPolling = () => {
      timers.poll ??= setInterval(() => void refresh(true), FALLBACK_POLL_MS);
    };
    const stopPolling = () => {
      clearInterval(timers.poll);
      timers.poll = undefined;
    };
    const countsSoon = () => {
      clearTimeout(counter);
      counter = setTimeout(() => void refresh(true), COUNTS_DEBOUNCE_MS);
    };
    const connect = async () => {
      if (stopped) return;
      ctrl = new AbortController();
      setConnection(failures ? 'reconnecting' : 'connecting');
      try {
        await readSse(urlOf(api.monitoring.liveStream, { query: { after_id: lastId.current } }), {
          headers: authHeaders(),
          signal: ctrl.signal,
          onOpen: () => {
            failures = 0;
            stopPolling();
            setConnection('live');
            setUpdatedAt(new Date());
          },
          onEvent: (e) => {
            if (e.event === 'log') {
              addEvents([JSON.parse(e.data) as LiveEvent]);
              setUpdatedAt(new Date());
              countsSoon();
            } else if (e.event === 'calls') {
              setCalls(JSON.parse(e.data) as LiveCalls);
              setUpdatedAt(new Date());
            }
          },
        });
      } catch {
        if (stopped) return;
        failures += 1;
        setConnection('reconnecting');
        // Catch up at once (this also reports an ended session), then poll until the stream is back.
        void refresh(true);
        startPolling();
        timers.retry = setTimeout(() => void connect(), Math.min(MAX_RETRY_MS, 1000 * 2 ** (failures - 1)));
      }
    };
    setConnection('connecting');
    void refresh().then(() => connect());
    return () => {
      stopped = true;
      ctrl?.abort();
      clearInterval(timers.poll);
      clearTimeout(timers.retry);
      clearTimeout(counter);
    };
  }, [mode, refresh, addEvents]);

  return { events, counts, calls, connection, updatedAt, loading, refresh: () => refresh() };
}
