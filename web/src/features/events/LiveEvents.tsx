import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSessionStore } from '../../lib/session/store';
import { applyEvent } from './apply';
import { openEventStream } from './connection';
import { useEventsStore } from './store';

/**
 * Keeps the event stream open while mounted (the app shell mounts it for a signed-in
 * user, so signing out closes it) and reconnects when the token rotates or the role
 * changes: the stream carries the role's events, authenticated by the token.
 */
export function LiveEvents() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const { setConnected } = useEventsStore.getState();
    const stream = openEventStream({
      onEvent: (event) => applyEvent(queryClient, event, useSessionStore.getState().user?.id),
      onConnected: setConnected,
    });
    const unsubscribe = useSessionStore.subscribe((now, before) => {
      if (now.token && (now.token !== before.token || now.currentRole?.id !== before.currentRole?.id)) stream.restart();
    });
    return () => {
      unsubscribe();
      stream.stop();
      setConnected(false);
    };
  }, [queryClient]);
  return null;
}
