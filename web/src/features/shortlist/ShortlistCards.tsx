import { Anchor, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { Shelf } from './api';
import { shelfQuery } from './queries';
import classes from './Shortlists.module.css';

/** How many entries a card shows before "Show all". */
export const CARD_SIZE = 8;

const cards: { shelf: Shelf; title: string; empty: string }[] = [
  { shelf: 'favourites', title: 'Favourites', empty: 'No favourites yet: star a record with the Favourite button on its page.' },
  { shelf: 'recent', title: 'Recent records', empty: 'The records you open will be listed here.' },
];

/**
 * The user's favourites and recent records, each a card of links to the records' pages
 * (name, then kind, number and status), newest first. A section of its own, for the
 * dashboard.
 */
export function ShortlistCards() {
  return (
    <div className={classes.grid}>
      {cards.map((card) => (
        <ShelfCard key={card.shelf} {...card} />
      ))}
    </div>
  );
}

function ShelfCard({ shelf, title, empty }: { shelf: Shelf; title: string; empty: string }) {
  const items = useQuery(shelfQuery(shelf));
  const [all, setAll] = useState(false);
  const headingId = useId();
  const shown = all ? items.data : items.data?.slice(0, CARD_SIZE);
  const hidden = (items.data?.length ?? 0) - (shown?.length ?? 0);

  return (
    <Paper component="section" withBorder radius="md" p="md" className={classes.card} aria-labelledby={headingId} data-testid={`shortlist-${shelf}`}>
      <Title order={2} id={headingId} className={classes.title} mb="sm">
        {title}
      </Title>
      {items.isPending && (
        <Stack gap={8} aria-busy="true">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={18} width={`${70 - i * 12}%`} radius="sm" />
          ))}
        </Stack>
      )}
      {items.isError && (
        <Group gap="xs">
          <Text size="sm" c="red.7">
            {items.error.message}
          </Text>
          <Button size="compact-xs" variant="light" color="red" onClick={() => void items.refetch()}>
            Try again
          </Button>
        </Group>
      )}
      {shown && shown.length === 0 && (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      )}
      {shown && shown.length > 0 && (
        <ul className={classes.list}>
          {shown.map((item) => (
            <li key={`${item.type}:${item.id}`} className={classes.item}>
              <Anchor component={Link} to={item.domain} size="sm" className={classes.name}>
                {item.name}
              </Anchor>
              {item.detail && <span className={classes.detail}>{item.detail}</span>}
            </li>
          ))}
        </ul>
      )}
      {hidden > 0 && (
        <Button variant="subtle" size="compact-sm" mt="xs" onClick={() => setAll(true)}>
          Show all {items.data?.length}
        </Button>
      )}
    </Paper>
  );
}
