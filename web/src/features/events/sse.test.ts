import { describe, expect, it } from 'vitest';
import { createSseParser, readSse, type SseEvent } from './sse';

function parse(chunks: string[]) {
  const events: SseEvent[] = [];
  const retries: number[] = [];
  const parser = createSseParser({ onEvent: (e) => events.push(e), onRetry: (ms) => retries.push(ms) });
  for (const chunk of chunks) parser.push(chunk);
  return { events, retries };
}

describe('createSseParser', () => {
  it('reads id, event and data fields, and joins multi-line data', () => {
    const { events } = parse(['id: 7\nevent: record\ndata: {"a":1,\ndata: "b":2}\n\n']);
    expect(events).toEqual([{ id: '7', event: 'record', data: '{"a":1,\n"b":2}' }]);
  });

  it('skips comments, names an unnamed event "message", and keeps the last id', () => {
    const { events } = parse([': ping\n\nid: 3\ndata: x\n\n: ping\n\ndata: y\n\n']);
    expect(events).toEqual([
      { id: '3', event: 'message', data: 'x' },
      { id: '3', event: 'message', data: 'y' },
    ]);
  });

  it('reports retry and ignores a non-numeric one', () => {
    const { retries, events } = parse(['retry: 3000\nretry: soon\n\n']);
    expect(retries).toEqual([3000]);
    expect(events).toEqual([]);
  });

  it('handles CRLF and CR line ends, split across chunks', () => {
    const { events } = parse(['event: list\r', '\ndata: {}\r\n\r', '\nevent: reset\rdata: {}\r\r', ': next']);
    expect(events).toEqual([
      { event: 'list', data: '{}', id: undefined },
      { event: 'reset', data: '{}', id: undefined },
    ]);
  });

  it('waits for the end of a line split anywhere, and for the blank line', () => {
    const text = 'id: 12\nevent: editing\ndata: {"kind":"customer"}\n\n';
    const { events } = parse(text.split(''));
    expect(events).toEqual([{ id: '12', event: 'editing', data: '{"kind":"customer"}' }]);
    expect(parse([text.slice(0, -1)]).events).toEqual([]);
  });

  it('takes a field without a colon as an empty value, and only one leading space off', () => {
    const { events } = parse(['data\ndata:  two\n\n']);
    expect(events[0]?.data).toBe('\n two');
  });
});

describe('readSse', () => {
  it('decodes a byte stream split inside a multi-byte character', async () => {
    const bytes = new TextEncoder().encode('data: Zoë\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 8));
        controller.enqueue(bytes.slice(8));
        controller.close();
      },
    });
    const events: SseEvent[] = [];
    await readSse(body, { onEvent: (e) => events.push(e) }, new AbortController().signal);
    expect(events.map((e) => e.data)).toEqual(['Zoë']);
  });
});
