import { Kbd, TextInput } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { lazy, Suspense, useId, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { OptionList, optionId, useActiveOption } from '../../components/search/OptionList';
import { type SearchOption, useGroupedResults, useRecordSearch, loadCommandPalette } from '../search';
import { SearchStatus } from '../../components/search/SearchStatus';
import searchClasses from '../../components/search/Search.module.css';
import { SearchIcon } from '../../components/icons';
import classes from './Navbar.module.css';

const CommandPalette = lazy(() => loadCommandPalette().then((module) => ({ default: module.CommandPalette })));

/** The palette's shortcut as this platform's keyboard shows it. */
const SHORTCUT = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent) ? '⌘ K' : 'Ctrl K';

/**
 * The global record search box of the navbar (SPEC §2, §4 "Search", §5, §8), an ARIA
 * combobox: typing searches (thresholds and debounce in features/search/thresholds.ts), the
 * results drop down as a listbox, grouped by kind, each group ending with "See all" (its
 * list filtered by the text); ArrowDown/ArrowUp highlight an entry, Enter or a click opens
 * it (a result in a new tab) and clears the query, Escape closes the list (a second Escape
 * clears the query). Leaving the box for anything outside it clears the query. While the
 * query is too short to show results, a hint under the box (its description) says how
 * much more to type.
 *
 * Ctrl+K (⌘K on a Mac), from anywhere, opens the command palette (loaded on first use):
 * the same search plus "Go to" entries for the role's menu.
 */
export function GlobalSearch() {
  const search = useRecordSearch();
  const { sections, options, open } = useGroupedResults(search);
  const cursor = useActiveOption(options);
  const [dismissed, setDismissed] = useState(false);
  const [palette, setPalette] = useState({ loaded: false, opened: false });
  const widget = useRef<HTMLDivElement>(null);
  const listId = useId();

  useHotkeys([['mod+K', () => setPalette({ loaded: true, opened: true })]], []);

  const expanded = search.showsResults && !dismissed;

  const change = (value: string) => {
    setDismissed(false);
    search.change(value);
  };

  const choose = (option: SearchOption) => {
    open(option);
    change('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      if (expanded) setDismissed(true);
      else change('');
    } else if (expanded) {
      cursor.onKeyDown(event, (index) => choose(options[index]!));
    } else if (event.key === 'ArrowDown' && search.showsResults) {
      event.preventDefault();
      setDismissed(false);
    }
  };

  const onBlur = (event: FocusEvent<HTMLInputElement>) => {
    if (!widget.current?.contains(event.relatedTarget)) change('');
  };

  return (
    <>
      <div role="search" className={`${classes.search} ${searchClasses.anchor}`} ref={widget}>
        <TextInput
          type="text"
          role="combobox"
          aria-label="Search records"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && cursor.active >= 0 ? optionId(listId, cursor.active) : undefined}
          // Its description: how much more to type while the query is too short to show results.
          description={search.hint}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          placeholder="Search records"
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="search"
          size="sm"
          radius="md"
          leftSection={<SearchIcon />}
          rightSection={
            search.query ? null : (
              <Kbd size="xs" aria-hidden="true" className={classes.shortcutHint}>
                {SHORTCUT}
              </Kbd>
            )
          }
          rightSectionWidth={64}
          rightSectionPointerEvents="none"
          value={search.query}
          onChange={(event) => change(event.currentTarget.value)}
          onKeyDown={onKeyDown}
          onBlur={onBlur}
          classNames={{ wrapper: classes.searchWrapper, input: classes.searchInput, description: searchClasses.hint }}
        />
        {expanded && (
          <div className={searchClasses.panel}>
            <OptionList
              id={listId}
              label="Search results"
              sections={sections}
              active={cursor.active}
              onHighlight={cursor.setActive}
              onChoose={choose}
            />
            <SearchStatus loading={search.loading} count={search.results.length} />
          </div>
        )}
      </div>
      {palette.loaded && (
        <Suspense fallback={null}>
          <CommandPalette opened={palette.opened} onClose={() => setPalette({ loaded: true, opened: false })} />
        </Suspense>
      )}
    </>
  );
}
