import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSessionHooks, type SessionHooks } from '../../lib/api';
import { useSessionStore } from '../../lib/session/store';
import { signIn } from '../records/testing';
import { openEventStream, type EventStream } from './connection';
import type { SseEvent } from './sse';

/** A response whose body is a stream the test writes to and closes. */
function streamResponse() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    response: new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }),
    write: (text: string) => controller.enqueue(new TextEncoder().encode(text)),
    close: () => controller.close(),
  };
}

type Answer = ReturnType<typeof streamResponse> | Response;

/** A fake fetch answering each call with the next of `answers`; records the headers sent. */
function fakeFetch(answers: Answer[]) {
  const headers: Headers[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init?: RequestInit) => {
      headers.push(new Headers(init?.headers));
      const next = answers.shift();
      if (!next) return new Promise<Response>(() => {});
      return next instanceof Response ? next : next.response;
    }),
  );
  return headers;
}

let stream: EventStream | undefined;
const sleeps: number[] = [];
const sleep = async (ms: number) => void sleeps.push(ms);

function hooks(recover: Awaited<ReturnType<SessionHooks['recover']>>) {
  const fake = { ensureFresh: vi.fn(async () => {}), recover: vi.fn(async () => recover), onSessionExpired: vi.fn() };
  setSessionHooks(fake);
  return fake;
}

beforeEach(() => {
  signIn();
  sleeps.length = 0;
});

afterEach(() => {
  stream?.stop();
  setSessionHooks(null);
  useSessionStore.getState().clearSession();
  vi.unstubAllGlobals();
});

describe('openEventStream', () => {
  it('sends the session headers, and after a drop reconnects with Last-Event-ID after the retry delay', async () => {
    const session = hooks('renewed');
    const first = streamResponse();
    const headers = fakeFetch([first, streamResponse()]);
    const events: SseEvent[] = [];
    const connected: boolean[] = [];
    stream = openEventStream({ onEvent: (e) => events.push(e), onConnected: (c) => connected.push(c), sleep });

    await vi.waitFor(() => expect(headers).toHaveLength(1));
    expect(headers[0]?.get('Authorization')).toBe('Bearer tok');
    expect(headers[0]?.get('X-Role-Id')).toBe('1001');
    expect(headers[0]?.get('Last-Event-ID')).toBeNull();
    expect(session.ensureFresh).toHaveBeenCalled();

    first.write('retry: 2500\n\n: ping\n\nid: 41\nevent: record\ndata: {"kind":"customer","ids":[7]}\n\n');
    await vi.waitFor(() => expect(events).toHaveLength(1));
    expect(events[0]).toMatchObject({ id: '41', event: 'record' });
    first.close();

    await vi.waitFor(() => expect(headers).toHaveLength(2));
    expect(headers[1]?.get('Last-Event-ID')).toBe('41');
    expect(sleeps).toEqual([2500]);
    expect(connected).toEqual([true, false, true]);
  });

  it('backs off longer after each failed attempt', async () => {
    hooks('renewed');
    const headers = fakeFetch([new Response('', { status: 502 }), new Response('', { status: 502 })]);
    stream = openEventStream({ onEvent: () => {}, sleep });
    await vi.waitFor(() => expect(headers).toHaveLength(3));
    expect(sleeps).toEqual([3000, 6000]);
  });

  it('reconnects at once after a 511 the session renews; ends the session when it cannot', async () => {
    const session = hooks('renewed');
    const headers = fakeFetch([new Response('', { status: 511 })]);
    stream = openEventStream({ onEvent: () => {}, sleep });
    await vi.waitFor(() => expect(headers).toHaveLength(2));
    expect(session.recover).toHaveBeenCalledWith('tok');
    expect(sleeps).toEqual([]);
    stream.stop();

    const ended = hooks('ended');
    const again = fakeFetch([new Response('', { status: 511 })]);
    stream = openEventStream({ onEvent: () => {}, sleep });
    await vi.waitFor(() => expect(ended.onSessionExpired).toHaveBeenCalled());
    expect(again).toHaveLength(1);
  });

  it('treats an end event as a 511', async () => {
    const session = hooks('ended');
    const open = streamResponse();
    const headers = fakeFetch([open]);
    const events: SseEvent[] = [];
    stream = openEventStream({ onEvent: (e) => events.push(e), sleep });
    await vi.waitFor(() => expect(headers).toHaveLength(1));
    open.write('event: end\ndata: {"status":511}\n\n');
    await vi.waitFor(() => expect(session.onSessionExpired).toHaveBeenCalled());
    expect(events).toEqual([]);
    expect(headers).toHaveLength(1);
  });

  it('restart reconnects at once with the new headers, resuming after the last event', async () => {
    hooks('renewed');
    const first = streamResponse();
    const headers = fakeFetch([first, streamResponse()]);
    stream = openEventStream({ onEvent: () => {}, sleep });
    await vi.waitFor(() => expect(headers).toHaveLength(1));
    first.write('id: 9\nevent: list\ndata: {"type":"list","kind":"customer"}\n\n');
    await new Promise((resolve) => setTimeout(resolve, 0));
    useSessionStore.getState().setTokens('tok2', 'ref2', { issuedAt: Date.now(), expiresAt: Date.now() + 3_600_000 });
    stream.restart();
    await vi.waitFor(() => expect(headers).toHaveLength(2));
    expect(headers[1]?.get('Authorization')).toBe('Bearer tok2');
    expect(headers[1]?.get('Last-Event-ID')).toBe('9');
    expect(sleeps).toEqual([]);
  });
});
