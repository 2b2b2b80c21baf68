import { TextInput } from '@mantine/core';
import { useState } from 'react';
import { SearchIcon } from './icons';
import classes from './Navbar.module.css';

/**
 * The global record search box of the navbar (SPEC §2). Its behaviour (debounced search,
 * results opening in a new tab, SPEC §5 thresholds) comes with its own issue; for now it
 * is a controlled input in a search landmark.
 */
export function GlobalSearch() {
  const [query, setQuery] = useState('');
  return (
    <div role="search" className={classes.search}>
      <TextInput
        type="search"
        aria-label="Search records"
        placeholder="Search records"
        autoComplete="off"
        spellCheck={false}
        size="sm"
        radius="md"
        leftSection={<SearchIcon />}
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
        classNames={{ input: classes.searchInput }}
      />
    </div>
  );
}
