/**
 * The Administration pages' model and calls: the tenant's access file (users, roles,
 * menus — the data `portico roles export` prints) read with its version
 * (`GET /api/v1/admin/access`) and replaced whole with `If-Match` (`PUT`): a 412 means
 * another administrator saved first, a 422 names every problem by its place in the file
 * ("users[2]", "roles[1].rules.invoice.view"). The edits are pure functions of the file,
 * so the pages only render and call them.
 */
import { api, ApiError } from '../../lib/api';
import { kindByName, kindByRoute, serializeFilter, type Kind } from '../records';

export interface MenuItem {
  text?: string;
  iconCss?: string;
  href?: string;
  items?: MenuItem[] | null;
  separator?: boolean;
}

export interface Layout {
  id: string;
  name: string;
  items: MenuItem[] | null;
}

export interface AccessRole {
  _id: string;
  id: number;
  name: string;
  type: string;
  layout: string;
  permissions: string[] | null;
  rules?: Record<string, string>;
}

export interface AccessUser {
  id: number;
  email: string;
  fullName: string;
  disabled?: boolean;
  roles: number[] | null;
  sso?: boolean;
}

export interface AccessFile {
  tenant: string;
  name: string;
  layouts: Layout[] | null;
  roles: AccessRole[] | null;
  users: AccessUser[] | null;
}

/** A record kind as a role's permissions see it. */
export interface KindInfo {
  route: string;
  plural: string;
  canCreate: boolean;
  canEdit: boolean;
  /** Its records go through approval: the role may be given `route.approve`. */
  canApprove: boolean;
}

export interface PermissionInfo {
  name: string;
  label: string;
}

export interface AccessSetup {
  file: AccessFile;
  version: string;
  kinds: KindInfo[];
  permissions: PermissionInfo[];
}

/** How many records of a kind a user would see in a role (the preview). */
export interface KindCount {
  kind: string;
  route: string;
  plural: string;
  rule?: string;
  count: number;
  estimated: boolean;
  error?: string;
}

/** The permission that opens these pages. */
export const ADMIN_PERMISSION = 'access.admin';

export const ACCESS_PATH = '/admin/access';

/** The file with every list present (the server sends null for an empty one). */
export function normalise(file: AccessFile): AccessFile {
  return {
    ...file,
    layouts: (file.layouts ?? []).map((l) => ({ ...l, items: l.items ?? [] })),
    roles: (file.roles ?? []).map((r) => ({ ...r, permissions: r.permissions ?? [] })),
    users: (file.users ?? []).map((u) => ({ ...u, roles: u.roles ?? [] })),
  };
}

export async function fetchAccess(signal?: AbortSignal): Promise<AccessSetup> {
  const answer = await api.get<{ data: AccessSetup }>(ACCESS_PATH, { signal });
  return { ...answer.data, file: normalise(answer.data.file) };
}

/** Replaces the whole setup; rejects with a 412 ApiError when `version` is no longer current. */
export async function saveAccess(file: AccessFile, version: string): Promise<{ version: string; file: AccessFile; summary: string }> {
  const answer = await api.put<{ data: { file: AccessFile; version: string; summary: string } }>(ACCESS_PATH, file, {
    headers: { 'If-Match': `"${version}"` },
  });
  return { ...answer.data, file: normalise(answer.data.file) };
}

/** Counts the records of each kind `userId` would see in `role` (saved or not). */
export async function previewRole(role: AccessRole, userId: number, signal?: AbortSignal): Promise<KindCount[]> {
  const answer = await api.post<{ data: KindCount[] }>(`${ACCESS_PATH}/preview`, { role }, { query: { user: userId }, signal });
  return answer.data;
}

/** Whether a failed save failed because someone else saved first. */
export function isStale(error: unknown): boolean {
  return error instanceof ApiError && error.status === 412;
}

export const STALE_MESSAGE = 'Someone else changed the users, roles or menus while you were editing. The page now shows their version: make your change again.';

/** The messages of the problems at `field` or inside it ("roles[1]" takes "roles[1].rules.x.view"). */
export function problemsAt(problems: readonly { field: string; message: string }[], field: string): string[] {
  return problems.filter((p) => p.field === field || p.field.startsWith(`${field}.`)).map((p) => p.message);
}

const nextId = (ids: number[]) => ids.reduce((max, id) => Math.max(max, id), 0) + 1;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What is wrong with a new user, or null. */
export function newUserProblem(file: AccessFile, email: string, fullName: string): string | null {
  const e = email.trim().toLowerCase();
  if (!EMAIL.test(e)) return 'Enter an email address, like name@company.com.';
  if ((file.users ?? []).some((u) => u.email.toLowerCase() === e)) return 'A user with this email already exists.';
  if (!fullName.trim()) return 'Enter the full name.';
  return null;
}

export function addUser(file: AccessFile, email: string, fullName: string): AccessFile {
  const users = file.users ?? [];
  return {
    ...file,
    users: [...users, { id: nextId(users.map((u) => u.id)), email: email.trim().toLowerCase(), fullName: fullName.trim(), roles: [] }],
  };
}

function mapUser(file: AccessFile, userId: number, fn: (u: AccessUser) => AccessUser): AccessFile {
  return { ...file, users: (file.users ?? []).map((u) => (u.id === userId ? fn(u) : u)) };
}

/** Grants (on) or revokes a role; a granted role goes last (the first is the default at sign-in). */
export function setUserRole(file: AccessFile, userId: number, roleId: number, on: boolean): AccessFile {
  return mapUser(file, userId, (u) => {
    const roles = (u.roles ?? []).filter((r) => r !== roleId);
    return { ...u, roles: on ? [...roles, roleId] : roles };
  });
}

export function setUserDisabled(file: AccessFile, userId: number, disabled: boolean): AccessFile {
  return mapUser(file, userId, (u) => {
    const { disabled: _, ...rest } = u;
    return disabled ? { ...rest, disabled: true } : rest;
  });
}

export type KindAction = 'view' | 'create' | 'edit' | 'approve';

/** The permissions of a kind: view, and create, edit and approve when the kind has them. */
export function kindPermissions(kind: KindInfo): { action: KindAction; name: string }[] {
  const out: { action: KindAction; name: string }[] = [{ action: 'view', name: `${kind.route}.view` }];
  if (kind.canCreate) out.push({ action: 'create', name: `${kind.route}.create` });
  if (kind.canEdit) out.push({ action: 'edit', name: `${kind.route}.edit` });
  if (kind.canApprove) out.push({ action: 'approve', name: `${kind.route}.approve` });
  return out;
}

/** Whether a permission may carry a rule (a view, an edit or an approval of a kind). */
export const takesRule = (permission: string) => ['.view', '.edit', '.approve'].some((a) => permission.endsWith(a));

/** What a rule box offers when nothing better is known of the kind: the grammar, in general. */
export const GENERIC_RULE_EXAMPLE = 'a filter: field op value';

/**
 * An example rule for a permission, true of the kind (the registry's `kinds`, which holds
 * the kinds the current role sees): an approval's next approver, else the kind's owner, else
 * the owner of a kind it refers to (followed one step), all "eq $me"; else its status is one
 * of its values; else the grammar. The server accepts each as a view or edit rule (owners
 * and statuses have an index).
 */
export function ruleExample(kinds: readonly Kind[] | undefined, route: string, action: KindAction): string {
  const kind = kindByRoute(kinds, route);
  if (!kind) return GENERIC_RULE_EXAMPLE;
  const mine = (field: string) => `e.g. ${field} eq $me`;
  if (action === 'approve' && kind.approval) return mine(kind.approval.nextApprover);
  if (kind.owner) return mine(kind.owner);
  for (const field of kind.fields) {
    const owner = field.type === 'reference' ? kindByName(kinds, field.ref)?.owner : undefined;
    if (owner) return mine(`${field.name}.${owner}`);
  }
  const status = kind.fields.find((f) => f.column === 'status' && f.choices?.length);
  if (status) return `e.g. ${serializeFilter([{ join: 'and', field: status.name, op: 'eq', value: status.choices![0]! }])}`;
  return GENERIC_RULE_EXAMPLE;
}

/** Gives or takes a permission; taking one drops its rule. */
export function setPermission(role: AccessRole, permission: string, on: boolean): AccessRole {
  const permissions = (role.permissions ?? []).filter((p) => p !== permission);
  if (on) permissions.push(permission);
  const next: AccessRole = { ...role, permissions };
  if (!on && role.rules?.[permission] !== undefined) next.rules = withoutKey(role.rules, permission);
  return next;
}

/** Sets a permission's rule; an empty text removes it (the permission covers every record). */
export function setRule(role: AccessRole, permission: string, text: string): AccessRole {
  const rules = { ...(role.rules ?? {}) };
  if (text.trim()) rules[permission] = text;
  else delete rules[permission];
  const next: AccessRole = { ...role, rules };
  if (Object.keys(rules).length === 0) delete next.rules;
  return next;
}

function withoutKey(rules: Record<string, string>, key: string): Record<string, string> | undefined {
  const rest = { ...rules };
  delete rest[key];
  return Object.keys(rest).length ? rest : undefined;
}

export function replaceRole(file: AccessFile, role: AccessRole): AccessFile {
  return { ...file, roles: (file.roles ?? []).map((r) => (r.id === role.id ? role : r)) };
}

/** A new role without permissions, its ids free. */
export function addRole(file: AccessFile, name: string): { file: AccessFile; role: AccessRole } {
  const roles = file.roles ?? [];
  const id = nextId(roles.map((r) => r.id));
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'role';
  let key = `role-${slug}`;
  if (roles.some((r) => r._id === key)) key = `${key}-${id}`;
  const role: AccessRole = { _id: key, id, name: name.trim(), type: 'staff', layout: '', permissions: [] };
  return { file: { ...file, roles: [...roles, role] }, role };
}

/** Removes a role and every grant of it. */
export function removeRole(file: AccessFile, roleId: number): AccessFile {
  return {
    ...file,
    roles: (file.roles ?? []).filter((r) => r.id !== roleId),
    users: (file.users ?? []).map((u) => ({ ...u, roles: (u.roles ?? []).filter((r) => r !== roleId) })),
  };
}

// Menus: a layout's tree, an item named by its path of indexes ([2, 0]: the first item
// under the third).

export type ItemPath = number[];

function editItems(items: MenuItem[], path: ItemPath, fn: (siblings: MenuItem[], index: number) => MenuItem[]): MenuItem[] {
  const [head = 0, ...rest] = path;
  if (rest.length === 0) return fn(items, head);
  return items.map((item, i) => (i === head ? { ...item, items: editItems(item.items ?? [], rest, fn) } : item));
}

export function updateItem(items: MenuItem[], path: ItemPath, patch: Partial<MenuItem>): MenuItem[] {
  return editItems(items, path, (siblings, i) => siblings.map((item, j) => (j === i ? { ...item, ...patch } : item)));
}

export function removeItem(items: MenuItem[], path: ItemPath): MenuItem[] {
  return editItems(items, path, (siblings, i) => siblings.filter((_, j) => j !== i));
}

/** Moves an item among its siblings by delta (-1 up, +1 down); nothing past either end. */
export function moveItem(items: MenuItem[], path: ItemPath, delta: number): MenuItem[] {
  return editItems(items, path, (siblings, i) => {
    const to = i + delta;
    if (to < 0 || to >= siblings.length) return siblings;
    const next = [...siblings];
    const [moved] = next.splice(i, 1);
    next.splice(to, 0, moved!);
    return next;
  });
}

/** Appends an item at the top level (parent null) or under the item at `parent`. */
export function addItem(items: MenuItem[], parent: ItemPath | null, item: MenuItem): MenuItem[] {
  if (!parent) return [...items, item];
  return editItems(items, parent, (siblings, i) => siblings.map((s, j) => (j === i ? { ...s, items: [...(s.items ?? []), item] } : s)));
}

export function replaceLayoutItems(file: AccessFile, layoutId: string, items: MenuItem[]): AccessFile {
  return { ...file, layouts: (file.layouts ?? []).map((l) => (l.id === layoutId ? { ...l, items } : l)) };
}

/**
 * The file with a new, empty menu named `name`, and its id: the name in lower case, its other
 * characters dashes (the ids the server accepts), made unique among the file's menus.
 */
export function addLayout(file: AccessFile, name: string): { file: AccessFile; id: string } {
  const layouts = file.layouts ?? [];
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'menu';
  let id = base;
  for (let n = 2; layouts.some((l) => l.id === id); n++) id = `${base}-${n}`;
  return { file: { ...file, layouts: [...layouts, { id, name: name.trim(), items: [] }] }, id };
}

/** The file without menu `layoutId` (the caller keeps a menu some role uses). */
export function removeLayout(file: AccessFile, layoutId: string): AccessFile {
  return { ...file, layouts: (file.layouts ?? []).filter((l) => l.id !== layoutId) };
}

/** What is wrong with a menu link, or null: an app path (/...) or an https:// address, or none. */
export function hrefProblem(href: string): string | null {
  if (!href || (href.startsWith('/') && !href.startsWith('//')) || href.startsWith('https://')) return null;
  return 'A page of the portal (/project/list) or an https:// address.';
}
