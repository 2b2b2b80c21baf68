import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { role, signIn } from '../records/testing';
import { useSessionStore } from '../../lib/session/store';
import { LiveEvents } from './LiveEvents';
import { useEventsStore } from './store';

/** A fake fetch whose every event-stream answer stays open; the test writes to the latest. */
function fakeStreams() {
  const calls: { headers: Headers; signal: AbortSignal }[] = [];
  const writers: ((text: string) => void)[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      calls.push({ headers: new Headers(init.headers), signal: init.signal! });
      const body = new ReadableStream<Uint8Array>({ start: (c) => void writers.push((text) => c.enqueue(new TextEncoder().encode(text))) });
      return new Response(body, { status: 200 });
    }),
  );
  return { calls, write: (text: string) => writers.at(-1)!(text) };
}

beforeEach(() => signIn());

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
  useEventsStore.setState({ marks: {}, editing: {}, connected: false });
});

describe('LiveEvents', () => {
  it('connects, applies events, reconnects on a role change with the new role and the last id, and closes when unmounted', async () => {
    const streams = fakeStreams();
    const view = render(
      <QueryClientProvider client={new QueryClient()}>
        <LiveEvents />
      </QueryClientProvider>,
    );
    await vi.waitFor(() => expect(useEventsStore.getState().connected).toBe(true));
    streams.write('id: 3\nevent: record\ndata: {"kind":"customer","ids":[7],"action":"edit","byUserId":2,"by":"Pete Manager","at":""}\n\n');
    await vi.waitFor(() => expect(useEventsStore.getState().marks['customer:7']).toEqual({ by: 'Pete Manager' }));

    useSessionStore.getState().setCurrentRole({ ...role, id: 1002 });
    await vi.waitFor(() => expect(streams.calls).toHaveLength(2));
    expect(streams.calls[0]!.signal.aborted).toBe(true);
    expect(streams.calls[1]!.headers.get('X-Role-Id')).toBe('1002');
    expect(streams.calls[1]!.headers.get('Last-Event-ID')).toBe('3');

    view.unmount();
    expect(streams.calls[1]!.signal.aborted).toBe(true);
    expect(useEventsStore.getState().connected).toBe(false);
  });
});
