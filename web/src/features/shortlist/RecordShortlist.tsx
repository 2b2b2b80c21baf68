import { Button } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiError } from '../../lib/api';
import { useAppStore } from '../../lib/appState';
import { recordVisit, setFavourite } from './api';
import { shelfQuery } from './queries';
import { StarIcon } from './StarIcon';

/**
 * A record page's part in the user's shortlists, mounted in the page's header once the
 * record has loaded: opening the page makes it the user's newest recent record (one POST
 * per page opened: the record's own GET stays free of side effects, see
 * internal/httpapi/shortlist.go), and a "Favourite" toggle button (aria-pressed) stars or
 * unstars it. The button shows the new state at once; a refusal (e.g. 200 favourites
 * already) puts it back and says why.
 */
export function RecordShortlist({ kind, id }: { kind: string; id: number }) {
  const queryClient = useQueryClient();
  const favourites = useQuery(shelfQuery('favourites'));
  const raiseAlert = useAppStore((s) => s.raiseAlert);

  useEffect(() => {
    recordVisit(kind, id).then(
      () => queryClient.invalidateQueries({ queryKey: shelfQuery('recent').queryKey }),
      // A visit not recorded costs the user nothing but one entry of their recent records.
      (error: unknown) => console.warn('Could not record the visit:', error),
    );
  }, [kind, id, queryClient]);

  const toggle = useMutation({
    mutationFn: (on: boolean) => setFavourite(kind, id, on),
    onError: (error) =>
      raiseAlert({
        type: 'alert-danger',
        title: 'Favourites',
        message: error instanceof ApiError || error instanceof Error ? error.message : String(error),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: shelfQuery('favourites').queryKey }),
  });

  const saved = favourites.data?.some((f) => f.type === kind && f.id === id) ?? false;
  const pressed = toggle.isPending ? toggle.variables : saved;
  return (
    <Button
      variant={pressed ? 'light' : 'default'}
      aria-pressed={pressed}
      disabled={favourites.isPending}
      title={pressed ? 'Remove from your favourites' : 'Add to your favourites'}
      leftSection={<StarIcon filled={pressed} />}
      onClick={() => toggle.mutate(!pressed)}
    >
      Favourite
    </Button>
  );
}
