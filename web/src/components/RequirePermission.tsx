/**
 * Shows a page only to roles with a permission (the server refuses the calls anyway);
 * other roles read why the page is not for them.
 */
import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../lib/paths';
import { useSessionStore } from '../lib/session/store';
import type { Role } from '../lib/session/types';

/** Whether a role may see a kind: the server's `<route>.view` permission. */
export function canView(role: Pick<Role, 'permissions'> | null | undefined, kind: { route: string }): boolean {
  return !!role?.permissions.includes(`${kind.route}.view`);
}

/** Whether the current role holds `permission`. */
export function useCan(permission: string): boolean {
  return useSessionStore((s) => !!s.currentRole?.permissions.includes(permission));
}

export interface RequirePermissionProps {
  permission: string;
  /** The page's title, shown above the refusal. */
  title: string;
  /** What the page is, for the refusal: "the audit log". */
  what: string;
  children: ReactNode;
}

export function RequirePermission({ permission, title, what, children }: RequirePermissionProps) {
  const allowed = useCan(permission);
  if (allowed) return <>{children}</>;
  return <NotAvailable title={title} what={what} />;
}

export interface NotAvailableProps {
  /** The page's title, shown above the refusal. */
  title: string;
  /** What the page is, for the refusal: "the audit log", "invoices". */
  what: string;
}

/**
 * The refusal of a page the current role may not see, inside the normal layout (navbar
 * and all): "Not available to your role", naming the role, with a way back to the
 * dashboard. Pages the role may not see show it instead of the not-found page.
 */
export function NotAvailable({ title, what }: NotAvailableProps) {
  const roleName = useSessionStore((s) => s.currentRole?.name);
  return (
    <Stack gap="md" maw={720}>
      <Title order={1}>{title}</Title>
      <Alert color="yellow" variant="light" title="Not available to your role" role="alert" data-testid="forbidden">
        <Stack gap="xs">
          <Text size="sm">
            Working as {roleName ?? 'your current role'}, you may not see {what}. Switch to a role that may, or ask your portal administrator.
          </Text>
          <Anchor component={Link} to={paths.home} size="sm">
            Back to the dashboard
          </Anchor>
        </Stack>
      </Alert>
    </Stack>
  );
}
