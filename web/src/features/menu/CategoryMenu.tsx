import { Button, Menu } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { isExternalHref, resolveHref, type HrefTarget } from './actions';
import type { MenuItem } from '../../lib/session';
import { ChevronDownIcon, ExternalIcon, MenuIconFor, MenuIcon, hasMenuIcon } from '../../components/icons';
import classes from './CategoryMenu.module.css';

/**
 * The category menu (SPEC §1/§2), built from the current role's layout: top-level items
 * are buttons in the bar (a category with children opens a menu), nested children open
 * sub-menus, separators divide. Selecting an item goes to its href: in-app paths through
 * the router, external http(s) links in a new tab; an href may also name an action
 * ("action:project-list", see features/menu/actions.ts), which opens that action's route. Below the wide breakpoint the same
 * tree sits behind one "Menu" button. Mantine menus are keyboard-usable: arrows move,
 * Enter selects, Escape closes and focus returns to the button.
 */

export { isExternalHref };

/** An in-app href as a path: "project/list" and "/project/list" both mean /project/list. */
export function inAppPath(href: string): string {
  const target = resolveHref(href);
  return target.kind === 'internal' ? target.to : href;
}

function children(item: MenuItem): MenuItem[] {
  return item.items;
}

function itemKey(item: MenuItem, index: number): string {
  return `${index}:${item.separator ? '—' : item.text}:${item.href}`;
}

function ariaCurrent(to: string, currentPath: string): 'page' | undefined {
  return to.split('?')[0] === currentPath ? 'page' : undefined;
}

/** A dropdown entry that goes to its target: router link in-app, new tab outside. */
function LinkMenuItem({ item, target, icon, currentPath }: { item: MenuItem; target: HrefTarget; icon: ReactNode; currentPath: string }) {
  if (target.kind === 'external') {
    return (
      <Menu.Item component="a" href={target.href} target="_blank" rel="noopener noreferrer" leftSection={icon} rightSection={<ExternalIcon />}>
        {item.text}
      </Menu.Item>
    );
  }
  if (target.kind === 'none') return <Menu.Label>{item.text}</Menu.Label>;
  return (
    <Menu.Item component={Link} to={target.to} aria-current={ariaCurrent(target.to, currentPath)} leftSection={icon}>
      {item.text}
    </Menu.Item>
  );
}

function DropdownItems({ items, currentPath }: { items: MenuItem[]; currentPath: string }): ReactNode {
  return items.map((item, index) => {
    const key = itemKey(item, index);
    if (item.separator) return <Menu.Divider key={key} role="separator" />;
    const icon = hasMenuIcon(item.iconCss) ? <MenuIconFor iconCss={item.iconCss} size={16} /> : undefined;
    if (children(item).length > 0) {
      return (
        <Menu.Sub key={key}>
          <Menu.Sub.Target>
            <Menu.Sub.Item leftSection={icon}>{item.text}</Menu.Sub.Item>
          </Menu.Sub.Target>
          <Menu.Sub.Dropdown>
            <DropdownItems items={children(item)} currentPath={currentPath} />
          </Menu.Sub.Dropdown>
        </Menu.Sub>
      );
    }
    return <LinkMenuItem key={key} item={item} target={resolveHref(item.href)} icon={icon} currentPath={currentPath} />;
  });
}

/** Whether the current page is one of a category's items (at any depth). */
export function containsPath(item: MenuItem, currentPath: string): boolean {
  return children(item).some((child) => {
    const target = resolveHref(child.href);
    return (target.kind === 'internal' && target.to.split('?')[0] === currentPath) || containsPath(child, currentPath);
  });
}

/** One top-level entry of the wide bar. */
function BarEntry({ item, currentPath }: { item: MenuItem; currentPath: string }) {
  const icon = <MenuIconFor iconCss={item.iconCss} size={18} />;
  if (children(item).length > 0) {
    return (
      <Menu position="bottom-start" offset={6} shadow="md" width={240} withinPortal>
        <Menu.Target>
          <Button
            variant="subtle"
            color="gray"
            size="sm"
            leftSection={icon}
            rightSection={<ChevronDownIcon />}
            className={classes.barButton}
            data-current-section={containsPath(item, currentPath) || undefined}
          >
            {item.text}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <DropdownItems items={children(item)} currentPath={currentPath} />
        </Menu.Dropdown>
      </Menu>
    );
  }
  const target = resolveHref(item.href);
  if (target.kind === 'none') return null;
  if (target.kind === 'external') {
    return (
      <Button
        component="a"
        href={target.href}
        target="_blank"
        rel="noopener noreferrer"
        variant="subtle"
        color="gray"
        size="sm"
        leftSection={icon}
        rightSection={<ExternalIcon />}
        className={classes.barButton}
      >
        {item.text}
      </Button>
    );
  }
  return (
    <Button
      component={Link}
      to={target.to}
      aria-current={ariaCurrent(target.to, currentPath)}
      variant="subtle"
      color="gray"
      size="sm"
      leftSection={icon}
      className={classes.barButton}
    >
      {item.text}
    </Button>
  );
}

/** The whole tree in one dropdown (narrow screens): categories become labelled groups. */
function CompactMenu({ items, currentPath }: { items: MenuItem[]; currentPath: string }) {
  return (
    <Menu position="bottom-start" offset={6} shadow="md" width={260} withinPortal>
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          size="sm"
          leftSection={<MenuIcon />}
          className={`${classes.barButton} ${classes.compactButton}`}
          aria-label="Menu"
        >
          <span className={classes.compactButtonText}>Menu</span>
        </Button>
      </Menu.Target>
      <Menu.Dropdown className={classes.compactDropdown}>
        {items.map((item, index) => {
          const key = itemKey(item, index);
          if (item.separator) return <Menu.Divider key={key} role="separator" />;
          if (children(item).length === 0) return <DropdownItems key={key} items={[{ ...item }]} currentPath={currentPath} />;
          return (
            <div key={key} role="group" aria-label={item.text}>
              {index > 0 && <Menu.Divider role="separator" />}
              <Menu.Label className={classes.compactLabel}>
                <MenuIconFor iconCss={item.iconCss} size={14} /> {item.text}
              </Menu.Label>
              <DropdownItems items={children(item)} currentPath={currentPath} />
            </div>
          );
        })}
      </Menu.Dropdown>
    </Menu>
  );
}

export function CategoryMenu({ items, className }: { items: MenuItem[]; /** Where the navbar places it. */ className?: string }) {
  const { pathname } = useLocation();
  if (items.length === 0) return null;
  return (
    <nav aria-label="Main menu" className={className ? `${classes.nav} ${className}` : classes.nav}>
      <div className={classes.wideMenu}>
        {items.map((item, index) =>
          item.separator ? (
            <span key={itemKey(item, index)} className={classes.barSeparator} aria-hidden="true" />
          ) : (
            <BarEntry key={itemKey(item, index)} item={item} currentPath={pathname} />
          ),
        )}
      </div>
      <div className={classes.compactMenu}>
        <CompactMenu items={items} currentPath={pathname} />
      </div>
    </nav>
  );
}
