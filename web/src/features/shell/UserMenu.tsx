import { Avatar, Menu, Text, UnstyledButton } from '@mantine/core';
import { useId } from 'react';
import { useNavigate } from 'react-router';
import { useSessionStore, type Role, type RoleOption } from '../../lib/session';
import { CheckIcon, ChevronDownIcon, LogoutIcon } from '../../components/icons';
import { performLogout, performRoleSwitch, type PageDeps } from './sessionActions';
import classes from './Navbar.module.css';

/** "Ada Admin" → "AA"; "cher" → "C". */
export function initials(fullName: string): string {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  const picked = words.length > 1 ? [words[0]!, words[words.length - 1]!] : words;
  return picked.map((w) => w.charAt(0).toUpperCase()).join('') || '?';
}

/** The user's roles with the derived current flag (SPEC §3). */
export function roleOptions(roles: Role[] | undefined, currentId: number | undefined): RoleOption[] {
  return (roles ?? []).map((role) => ({ ...role, current: role.id === currentId }));
}

/**
 * The user menu (SPEC §2): a button showing the user's full name and current role, named by
 * that visible text (WCAG 2.5.3: "Ada Admin Administrator"; the name alone where the role is
 * hidden on narrow screens); its menu, named with the full name, lists every role, the
 * current one checked (menuitemradio with aria-checked), and "Log out". Choosing another
 * role switches to it.
 */
export function UserMenu() {
  const user = useSessionStore((s) => s.user);
  const currentRole = useSessionStore((s) => s.currentRole);
  const navigate = useNavigate();
  const nameId = useId();
  if (!user) return null;

  const roles = roleOptions(user.roles, currentRole?.id);
  const deps: PageDeps = {
    navigate: (to, options) => navigate(to, options),
    // Where the browser is at the click, not at this menu's last render: the router renders
    // a navigation as a transition, which a busy machine can leave behind the address bar
    // (a switch right after opening a list then reloaded that list instead of going home).
    pathname: () => window.location.pathname,
    reload: () => window.location.reload(),
  };

  return (
    <Menu position="bottom-end" offset={6} shadow="md" width={280} withinPortal checkIcon={<CheckIcon />}>
      <Menu.Target>
        <UnstyledButton className={classes.userButton}>
          <Avatar color="indigo" radius="xl" size={34} aria-hidden="true">
            {initials(user.fullName)}
          </Avatar>
          <span className={classes.userText}>
            <span className={classes.userName} id={nameId}>
              {user.fullName}
            </span>{' '}
            <span className={classes.userRole}>
              {currentRole?.name ?? 'No role'}
            </span>
          </span>
          <ChevronDownIcon className={classes.userChevron} />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown aria-labelledby={nameId}>
        <div className={classes.userHeader}>
          <Text fw={600} size="sm" truncate="end">
            {user.fullName}
          </Text>
          {user.email && (
            <Text size="xs" c="dimmed" truncate="end">
              {user.email}
            </Text>
          )}
        </div>
        <Menu.Divider role="separator" />
        <Menu.Label>Roles</Menu.Label>
        {roles.map((role) => (
          <Menu.RadioItem
            key={role.id}
            value={String(role.id)}
            checked={role.current}
            className={classes.roleItem}
            closeMenuOnClick
            onChange={() => void performRoleSwitch(role.id, deps)}
          >
            {role.name}
          </Menu.RadioItem>
        ))}
        <Menu.Divider role="separator" />
        <Menu.Item leftSection={<LogoutIcon size={16} />} onClick={() => void performLogout(deps)}>
          Log out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
