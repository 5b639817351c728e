import { describe, expect, it } from 'vitest';
import { sseParser, type SseEvent } from './sse';

/** Feeds the chunks in turn; answers the events seen after each. */
function feed(...chunks: string[]): SseEvent[][] {
  const seen: SseEvent[] = [];
  const parser = sseParser((e) => seen.push(e));
  return chunks.map((c) => {
    parser.feed(c);
    return seen.splice(0);
  });
}

describe('sseParser', () => {
  it('gives complete events only, finishes one cut across chunks and drops comments', () => {
    const [first, second] = feed(
      ': live monitoring\n\nevent: log\ndata: {"id":1}\n\nevent: calls\ndata: {"to',
      'tal":3}\n\n: keepalive\n\n',
    );
    expect(first).toEqual([{ event: 'log', data: '{"id":1}' }]);
    expect(second).toEqual([{ event: 'calls', data: '{"total":3}' }]);
  });

  it('joins data lines, reads ids, defaults the name to message, accepts CRLF, drops empty events', () => {
    const [events] = feed('id: 7\r\ndata: a\r\ndata: b\r\n\r\ndata:c\n\nevent: x\n\n');
    expect(events).toEqual([
      { event: 'message', data: 'a\nb', id: '7' },
      { event: 'message', data: 'c' },
    ]);
  });

  it('keeps a CRLF cut between two chunks as one line end', () => {
    const [a, b] = feed('data: x\r', '\n\r\n');
    expect([...a!, ...b!]).toEqual([{ event: 'message', data: 'x' }]);
  });
});
