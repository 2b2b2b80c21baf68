/**
 * The kind registry on the client: which kind a page shows, and lookups by record type
 * or route segment. Pages are generic; everything kind-specific comes from here.
 */
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useRouteMeta } from '../../lib/meta';
import { KIND_PARAM } from '../../lib/paths';
import type { TotalsFormat } from './format';
import { kindsQuery } from './queries';
import type { FieldType, Kind, KindField, KindTab, RecordDetail } from './types';

/**
 * Whether the role can pick a value for a field: a reference only when it may see the kind
 * referred to (its values are looked up there); any other field always. `visible` is the
 * kinds the role sees (GET /api/v1/kinds); unknown yet, every field counts as choosable.
 */
export function isChoosable(field: KindField, visible: readonly Kind[] | undefined): boolean {
  return field.type !== 'reference' || !visible || visible.some((k) => k.name === field.ref);
}

export function kindByName(kinds: readonly Kind[] | undefined, name: string | undefined): Kind | undefined {
  return name ? kinds?.find((k) => k.name === name) : undefined;
}

export function kindByRoute(kinds: readonly Kind[] | undefined, route: string | undefined): Kind | undefined {
  return route ? kinds?.find((k) => k.route === route) : undefined;
}

/** The kind of a URL path: its first segment is the kind's route (`/project/list`). */
export function kindOfPath(kinds: readonly Kind[] | undefined, pathname: string): Kind | undefined {
  return kindByRoute(kinds, pathname.split('/').filter(Boolean)[0]);
}

export function fieldOf(kind: Kind | undefined, name: string): KindField | undefined {
  return kind?.fields.find((f) => f.name === name);
}

/**
 * The tenant's base currency: the one `/api/v1/kinds` names on every money field (and money
 * column of a lines tab). Undefined when no kind given has money.
 */
export function baseCurrency(kinds: readonly Kind[] | undefined): string | undefined {
  for (const kind of kinds ?? []) {
    for (const f of kind.fields) if (f.type === 'money' && f.currency) return f.currency;
    for (const t of kind.tabs) for (const c of t.columns ?? []) if (c.type === 'money' && c.currency) return c.currency;
  }
  return undefined;
}

/**
 * How the totals of `kind`'s field `name` read (format.ts formatUnitTotals): its type
 * (`type` when the answer gives it), the base currency of money (the field's, else the
 * kind's), and for a quantity per a unit field, what records without a unit are called
 * ("no credit type").
 */
export function totalsFormatOf(kind: Kind | undefined, name: string, type?: FieldType): TotalsFormat {
  const field = fieldOf(kind, name);
  const per = field?.per ? fieldOf(kind, field.per) : undefined;
  return {
    type: type ?? field?.type,
    currency: field?.currency ?? baseCurrency(kind ? [kind] : undefined),
    noUnit: per ? `no ${per.label.toLowerCase()}` : undefined,
  };
}

/** The kind's field on a promoted column (title, code, status, parent_id, project_id, amount, occurred_on). */
export function fieldOnColumn(kind: Kind | undefined, column: string): KindField | undefined {
  return kind?.fields.find((f) => f.column === column);
}

/** A record's tabs, as its answer (else its kind) lists them. */
export function recordTabs(kind: Kind, record: Pick<RecordDetail, 'tabs'> | undefined): KindTab[] {
  return record?.tabs?.length ? record.tabs : kind.tabs;
}

export interface RouteKind {
  kind: Kind | undefined;
  kinds: Kind[] | undefined;
  /** What the route names the kind by: its `:kind` segment on record pages, else the meta `model`. */
  model: string | undefined;
  isPending: boolean;
  error: Error | null;
  refetch: () => void;
}

/**
 * The kind of the current route: on the record pages the kind whose route segment is the
 * `:kind` parameter (/project/list), elsewhere the route meta's `model` (a record type).
 */
export function useRouteKind(): RouteKind {
  const { model } = useRouteMeta();
  const route = useParams()[KIND_PARAM];
  const query = useQuery(kindsQuery());
  const kind = route === undefined ? kindByName(query.data, model) : kindByRoute(query.data, route);
  return {
    kind,
    kinds: query.data,
    model: route ?? model,
    isPending: query.isPending,
    error: query.error,
    refetch: () => void query.refetch(),
  };
}
