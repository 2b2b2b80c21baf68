import { Badge, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import logoUrl from '../assets/logo.svg';
import { config, PRODUCTION } from '../app/config';
import { paths } from '../app/paths';
import classes from './Navbar.module.css';

/**
 * Top bar (SPEC §1/§2): logo with the product name and the environment badge. The
 * category menu, global search and user menu are added by later issues.
 */
export function Navbar() {
  return (
    <header className={classes.header}>
      <Group h="100%" px="md" justify="space-between" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          <Link to={paths.home} className={classes.brand} aria-label={`${config.productName} home`}>
            <img src={logoUrl} alt="" width={32} height={32} />
            <Text component="span" fw={700} size="lg">
              {config.productName}
            </Text>
          </Link>
          {config.environment !== PRODUCTION && (
            <Badge variant="light" color="orange" radius="sm">
              {config.environment}
            </Badge>
          )}
        </Group>
      </Group>
    </header>
  );
}
