import { Badge } from '@mantine/core';
import { Link } from 'react-router';
import logoUrl from '../../assets/logo.svg';
import { config, PRODUCTION } from '../../lib/config';
import { paths } from '../../lib/paths';
import { GlobalSearch } from './GlobalSearch';
import { CategoryMenu, useMenuItems } from '../menu';
import { UserMenu } from './UserMenu';
import classes from './Navbar.module.css';

/**
 * Top bar (SPEC §1/§2): logo with the product name, the company's name on a deployment
 * serving several (wide screens), the environment badge (not in
 * Production), the category menu of the current role, the global search box and the user
 * menu. Below the wide breakpoint the search box takes a second row.
 */
export function Navbar() {
  const categories = useMenuItems();
  return (
    <header className={classes.header}>
      <div className={classes.bar}>
        <div className={classes.start}>
          <Link to={paths.home} className={classes.brand} aria-label={`${config.productName} home`}>
            <img src={logoUrl} alt="" width={30} height={30} />
            <span className={classes.productName}>{config.productName}</span>
          </Link>
          {config.companyName && (
            <span className={classes.companyName} data-testid="company-name" title={config.companyName}>
              {config.companyName}
            </span>
          )}
          {config.environment !== PRODUCTION && (
            <Badge variant="light" color="orange" radius="sm" className={classes.envBadge}>
              {config.environment}
            </Badge>
          )}
        </div>
        <CategoryMenu items={categories} className={classes.categoryNav} />
        <GlobalSearch />
        <div className={classes.end}>
          <UserMenu />
        </div>
      </div>
    </header>
  );
}
