import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { listPath } from './links';
import type { Kind } from './types';

/**
 * The line above a record or list page's title: a link to the kind's list, then where the
 * page is within it ("Projects / PRJ-000038", "Invoices / List editor"). The link is
 * underlined: in the dark scheme its colour alone is too close to the text around it
 * (1.79:1) to tell it apart (WCAG 1.4.1).
 */
export function KindCrumb({ kind, place }: { kind: Pick<Kind, 'route' | 'plural'>; place?: string }) {
  return (
    <Text size="sm">
      <Anchor component={Link} to={listPath(kind)} underline="always">
        {kind.plural}
      </Anchor>
      {place ? <Text span c="dimmed"> / {place}</Text> : null}
    </Text>
  );
}
