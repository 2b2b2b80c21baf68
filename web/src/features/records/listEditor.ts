/**
 * The list editor's form model: what a saved list being edited holds, how it is checked
 * before it goes to the server, and how the server's field errors map back onto it.
 */
import { ApiError } from '../../lib/api';
import { checkDraft, draftFor, type FilterDraft } from './FilterBuilder';
import { listEditorPath } from './links';
import type { Kind, ListConfig, ListConfigInput, SortDir, Visibility } from './types';

export const MAX_LIST_NAME = 80;

/**
 * The fields a saved list may sort by: those the registry marks sortable (account fields
 * included). A registry that does not say: every field but the references (parent,
 * project), whose ids mean nothing as an order.
 */
export function sortableFields(kind: Kind): Kind['fields'] {
  return kind.fields.filter((f) => f.sortable ?? f.type !== 'reference');
}

export interface ListForm {
  name: string;
  columns: string[];
  filter: FilterDraft;
  sortField: string;
  sortDir: SortDir;
  visibility: Visibility;
  /** With visibility "role": the role shared with (none: the role worked in). */
  roleId?: number;
}

export type FormErrors = Partial<Record<'name' | 'columns' | 'filter' | 'sort' | 'visibility' | 'form', string>>;

/** What a new list starts from: a list page's view (its columns, order and filter). */
export interface ListTemplate {
  columns?: string[];
  sort?: { field: string; dir: SortDir };
  filter?: string;
}

/**
 * A form for a new list: the view it was asked from (`from`), else the kind's default
 * list (`template`), else all the kind's fields; sorted as they are, else by the kind's
 * default order, else by title.
 */
export function newListForm(kind: Kind, template?: ListConfig, from: ListTemplate = {}): ListForm {
  const known = (name: string) => kind.fields.some((f) => f.name === name);
  const columns = from.columns?.filter(known);
  const sort = from.sort && known(from.sort.field) ? from.sort : (template?.sort ?? kind.defaultSort);
  return {
    name: '',
    columns: columns?.length ? columns : template?.columns.length ? [...template.columns] : kind.fields.map((f) => f.name),
    filter: draftFor(from.filter ?? '', kind.fields),
    sortField: sort?.field ?? kind.fields[0]?.name ?? '',
    sortDir: sort?.dir ?? 'asc',
    visibility: 'private',
  };
}

/**
 * The list editor's address for a new list of `type` that starts from a view:
 * `/list/edit?type=…&cols=a,b&sort=f&dir=desc&filter=…`.
 */
export function newListPath(type: string, from: ListTemplate): string {
  const params = new URLSearchParams({ type });
  if (from.columns?.length) params.set('cols', from.columns.join(','));
  if (from.sort) {
    params.set('sort', from.sort.field);
    params.set('dir', from.sort.dir);
  }
  if (from.filter) params.set('filter', from.filter);
  return `${listEditorPath()}?${params}`;
}

/** The view a new list starts from, read from the list editor's address (see newListPath). */
export function templateOf(search: URLSearchParams): ListTemplate {
  const from: ListTemplate = {};
  const cols = (search.get('cols') ?? '').split(',').filter(Boolean);
  if (cols.length) from.columns = cols;
  const sort = search.get('sort');
  if (sort) from.sort = { field: sort, dir: search.get('dir') === 'desc' ? 'desc' : 'asc' };
  const filter = search.get('filter')?.trim();
  if (filter) from.filter = filter;
  return from;
}

/** A form for an existing list. */
export function formOf(kind: Kind, list: ListConfig): ListForm {
  return {
    name: list.name,
    columns: [...list.columns],
    filter: draftFor(list.filter, kind.fields),
    sortField: list.sort.field,
    sortDir: list.sort.dir,
    visibility: list.visibility,
    roleId: list.roleId,
  };
}

/** Moves the item at `index` by `delta` places (clamped); the same array when it cannot move. */
export function move<T>(items: readonly T[], index: number, delta: number): T[] {
  const target = index + delta;
  if (index < 0 || index >= items.length || target < 0 || target >= items.length || delta === 0) return [...items];
  const next = [...items];
  const [item] = next.splice(index, 1);
  next.splice(target, 0, item as T);
  return next;
}

export interface Validated {
  input?: ListConfigInput;
  errors: FormErrors;
  /** Per filter row, its problem (for the builder). */
  filterCheck: ReturnType<typeof checkDraft>;
}

/**
 * Checks the form. `others` are the type's other saved lists (for a unique name).
 * Gives the request body when everything is fine. A report is a saved list with a
 * report part, so the report builder checks its list part here too (`noun` "report").
 */
export function validateListForm(form: ListForm, kind: Kind, others: readonly ListConfig[], noun = 'list'): Validated {
  const errors: FormErrors = {};
  const name = form.name.trim();
  if (!name) errors.name = `Give the ${noun} a name.`;
  else if (name.length > MAX_LIST_NAME) errors.name = `Keep the name to ${MAX_LIST_NAME} characters or fewer.`;
  else if (others.some((l) => l.name.trim().toLowerCase() === name.toLowerCase())) errors.name = `There is already a ${noun} named “${name}”.`;

  const known = new Set(kind.fields.map((f) => f.name));
  if (form.columns.length === 0) errors.columns = 'Choose at least one column.';
  else if (form.columns.some((c) => !known.has(c))) errors.columns = `Unknown column: ${form.columns.filter((c) => !known.has(c)).join(', ')}.`;

  if (!sortableFields(kind).some((f) => f.name === form.sortField)) errors.sort = 'Choose the field to sort by.';

  const filterCheck = checkDraft(form.filter, kind.fields);
  if (filterCheck.expression === undefined) errors.filter = filterCheck.textProblem ?? 'Fix the conditions marked above.';

  if (Object.keys(errors).length > 0) return { errors, filterCheck };
  return {
    errors,
    filterCheck,
    input: {
      name,
      columns: form.columns,
      filter: filterCheck.expression ?? '',
      sort: { field: form.sortField, dir: form.sortDir },
      visibility: form.visibility,
      ...(form.visibility === 'role' && form.roleId ? { roleId: form.roleId } : {}),
    },
  };
}

/**
 * The server's refusal as form errors: a 422's `errors: [{field, message}]` go to their
 * fields (`sort.field` → sort), anything else to the form as a whole.
 */
export function serverErrors(error: unknown): FormErrors {
  if (!(error instanceof ApiError)) return { form: error instanceof Error ? error.message : String(error) };
  const list = Array.isArray(error.errors) ? (error.errors as { field?: unknown; message?: unknown }[]) : [];
  const out: FormErrors = {};
  for (const item of list) {
    const message = typeof item.message === 'string' ? item.message : '';
    const raw = typeof item.field === 'string' ? item.field : '';
    const field = raw.split(/[.[]/)[0] as keyof FormErrors;
    const key: keyof FormErrors = ['name', 'columns', 'filter', 'sort', 'visibility'].includes(field) ? field : 'form';
    out[key] = out[key] ? `${out[key]} ${message}` : message;
  }
  if (Object.keys(out).length === 0) out.form = error.message;
  return out;
}
