/**
 * Links and sub-tabs of the create and edit pages, from the kind registry: a kind gets a
 * link only when its `/kinds` entry allows the page to the current role (`canCreate` /
 * `canEdit`), so no button leads to a page that would refuse.
 */
import { createPath, editPath, recordPagePath } from '../../../lib/paths';
import type { Kind, KindTab } from '../types';

export type FormPage = 'create' | 'edit';

function allows(kind: Pick<Kind, 'canCreate' | 'canEdit'>, page: FormPage): boolean {
  return page === 'create' ? kind.canCreate : kind.canEdit;
}

/** `/<route>/create[/<tab>]`, or undefined when the role may not create records of the kind. */
export function createPathOf(kind: Pick<Kind, 'route' | 'canCreate' | 'canEdit'>, tab?: string): string | undefined {
  return allows(kind, 'create') ? createPath(kind.route, tab) : undefined;
}

/** `/<route>/edit[/<tab>]?id=42`, or undefined when the role may not edit records of the kind. */
export function editPathOf(kind: Pick<Kind, 'route' | 'canCreate' | 'canEdit'>, id: number, tab?: string): string | undefined {
  return allows(kind, 'edit') ? editPath(kind.route, id, tab) : undefined;
}

/** `/<route>/<page>`: the form page's path without tab or id; undefined when the role may not use it. */
export function formBasePath(kind: Pick<Kind, 'route' | 'canCreate' | 'canEdit'>, page: FormPage): string | undefined {
  return allows(kind, page) ? recordPagePath(kind.route, page) : undefined;
}

/** The record's tabs a create or edit page shows below its form: the kind's tabs (any tab route resolves). */
export function formTabs(_kind: Kind, _page: FormPage, tabs: readonly KindTab[]): KindTab[] {
  return [...tabs];
}
