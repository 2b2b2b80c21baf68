import { Button, Menu } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import type { MenuItem } from '../session';
import { ChevronDownIcon, ExternalIcon, MenuIconFor, MenuIcon, hasMenuIcon } from './icons';
import classes from './Navbar.module.css';

/**
 * The category menu (SPEC §1/§2), built from the current role's layout: top-level items
 * are buttons in the bar (a category with children opens a menu), nested children open
 * sub-menus, separators divide. Selecting an item goes to its href: in-app paths through
 * the router, external http(s) links in a new tab. Below the wide breakpoint the same
 * tree sits behind one "Menu" button. Mantine menus are keyboard-usable: arrows move,
 * Enter selects, Escape closes and focus returns to the button.
 */

/** Whether an href leaves the app (opened in a new tab). */
export function isExternalHref(href: string): boolean {
  return /^https?:\/\//i.test(href);
}

/** An in-app href as a path: "project/list" and "/project/list" both mean /project/list. */
export function inAppPath(href: string): string {
  return href.startsWith('/') ? href : `/${href}`;
}

function children(item: MenuItem): MenuItem[] {
  return item.items;
}

function itemKey(item: MenuItem, index: number): string {
  return `${index}:${item.separator ? '—' : item.text}:${item.href}`;
}

function ariaCurrent(href: string, currentPath: string): 'page' | undefined {
  return inAppPath(href) === currentPath ? 'page' : undefined;
}

/** A dropdown entry that goes to `item.href`: router link in-app, new tab outside. */
function LinkMenuItem({ item, icon, currentPath }: { item: MenuItem; icon: ReactNode; currentPath: string }) {
  if (isExternalHref(item.href)) {
    return (
      <Menu.Item component="a" href={item.href} target="_blank" rel="noopener noreferrer" leftSection={icon} rightSection={<ExternalIcon />}>
        {item.text}
      </Menu.Item>
    );
  }
  return (
    <Menu.Item component={Link} to={inAppPath(item.href)} aria-current={ariaCurrent(item.href, currentPath)} leftSection={icon}>
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
    if (!item.href) return <Menu.Label key={key}>{item.text}</Menu.Label>;
    return <LinkMenuItem key={key} item={item} icon={icon} currentPath={currentPath} />;
  });
}

/** One top-level entry of the wide bar. */
function BarEntry({ item, currentPath }: { item: MenuItem; currentPath: string }) {
  const icon = <MenuIconFor iconCss={item.iconCss} size={18} />;
  if (children(item).length > 0) {
    return (
      <Menu position="bottom-start" offset={6} shadow="md" width={240} withinPortal>
        <Menu.Target>
          <Button variant="subtle" color="gray" size="sm" leftSection={icon} rightSection={<ChevronDownIcon />} className={classes.barButton}>
            {item.text}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <DropdownItems items={children(item)} currentPath={currentPath} />
        </Menu.Dropdown>
      </Menu>
    );
  }
  if (!item.href) return null;
  if (isExternalHref(item.href)) {
    return (
      <Button
        component="a"
        href={item.href}
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
      to={inAppPath(item.href)}
      aria-current={ariaCurrent(item.href, currentPath)}
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

export function CategoryMenu({ items }: { items: MenuItem[] }) {
  const { pathname } = useLocation();
  if (items.length === 0) return null;
  return (
    <nav aria-label="Main menu" className={classes.categoryNav}>
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
