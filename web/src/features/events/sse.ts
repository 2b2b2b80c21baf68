/**
 * A server-sent events parser (the WHATWG "event stream" format) for a stream read with
 * fetch: `EventSource` cannot send the Authorization and role headers.
 */

/** One dispatched event. `id` is the last event id seen so far on the stream (if any). */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

export interface SseHandlers {
  onEvent(event: SseEvent): void;
  /** A `retry:` field: the reconnection delay the server asks for, in ms. */
  onRetry?(ms: number): void;
}

/**
 * A push parser: feed it text as it comes (in any chunks); it calls back per complete
 * event. Lines end with CRLF, LF or CR; comments (`:`) are skipped; `data` lines join
 * with "\n"; an event with no data is not dispatched.
 */
export function createSseParser(handlers: SseHandlers): { push(text: string): void } {
  let buffer = '';
  let data: string[] = [];
  let event = '';
  let lastId: string | undefined;

  function field(line: string) {
    if (line === '') {
      if (data.length > 0) handlers.onEvent({ event: event || 'message', data: data.join('\n'), id: lastId });
      data = [];
      event = '';
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (name === 'data') data.push(value);
    else if (name === 'event') event = value;
    else if (name === 'id' && !value.includes('\0')) lastId = value;
    else if (name === 'retry' && /^\d+$/.test(value)) handlers.onRetry?.(Number(value));
  }

  return {
    push(text) {
      buffer += text;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer[i];
        if (c !== '\n' && c !== '\r') continue;
        // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
        if (c === '\r' && i === buffer.length - 1) break;
        field(buffer.slice(start, i));
        if (c === '\r' && buffer[i + 1] === '\n') i++;
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
  };
}

/** Reads a response body to its end (or until `signal` aborts), parsing it as events. */
export async function readSse(body: ReadableStream<Uint8Array>, handlers: SseHandlers, signal: AbortSignal): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = createSseParser(handlers);
  const cancel = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || signal.aborted) return;
      parser.push(decoder.decode(value, { stream: true }));
    }
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}
