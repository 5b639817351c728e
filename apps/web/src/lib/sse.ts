import { createParser } from 'eventsource-parser';

/** One server-sent event: its name (`message` when the server gave none) and its data lines joined. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * A parser of a text/event-stream fed chunk by chunk (eventsource-parser, the WHATWG rules: CRLF,
 * comments, multi-line data, ids): calls `onEvent` for each complete event with data, named
 * `message` when the server gave no name. Comment lines (": keepalive") and events without data are
 * dropped.
 */
export function sseParser(onEvent: (e: SseEvent) => void): { feed(chunk: string): void } {
  return createParser({
    onEvent: (m) => {
      if (m.data === '') return;
      onEvent({ event: m.event ?? 'message', data: m.data, ...(m.id !== undefined ? { id: m.id } : {}) });
    },
  });
}

/** Why a stream stopped: the server answered with an error status, or the connection ended or broke. */
export class SseClosed extends Error {
  constructor(readonly status: number) {
    super(status ? `stream refused (${status})` : 'stream closed');
  }
}

/**
 * Reads a server-sent-event stream with fetch, so it can carry the request headers the API
 * authenticates with (EventSource cannot send headers). Calls `onOpen` once the server accepted
 * it and `onEvent` for each event; resolves never: it rejects with SseClosed when the server
 * refuses or the stream ends, and with the abort error when `signal` aborts.
 */
export async function readSse(
  url: string,
  o: {
    headers: Record<string, string>;
    signal: AbortSignal;
    onOpen?: () => void;
    onEvent: (e: SseEvent) => void;
  },
): Promise<never> {
  const res = await fetch(url, {
    headers: { ...o.headers, Accept: 'text/event-stream' },
    signal: o.signal,
    cache: 'no-store',
  });
  if (!res.ok || !res.body || !(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    await res.body?.cancel().catch(() => undefined);
    throw new SseClosed(res.status || 0);
  }
  o.onOpen?.();
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const parser = sseParser(o.onEvent);
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) throw new SseClosed(0);
    parser.feed(decoder.decode(chunk.value, { stream: true }));
  }
}
