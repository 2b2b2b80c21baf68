import { Modal, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { SearchIcon } from '../../components/icons';
import { useMenuItems, filterByWords, goToOptions, type GoToOption } from '../menu';
import { shelfOptions, shelfQuery } from '../shortlist';
import type { SearchOption } from './groups';
import { OptionList, optionId, useActiveOption, type OptionSection } from '../../components/search/OptionList';
import { SearchStatus } from '../../components/search/SearchStatus';
import { useGroupedResults } from './useGroupedResults';
import { useRecordSearch } from './useRecordSearch';
import classes from '../../components/search/Search.module.css';

type PaletteOption = GoToOption | SearchOption;

/** How many favourites and recent records the palette lists (the dashboard shows more). */
export const PALETTE_SHELF_SIZE = 8;

export interface CommandPaletteProps {
  opened: boolean;
  onClose(): void;
}

/**
 * The command palette (Ctrl+K / ⌘K), a dialog named "Command palette": one combobox
 * whose list holds the user's "Favourites" and "Recent" records, "Go to" entries (the
 * current role's menu items), all filtered by the text, and then the global search's
 * results grouped by kind, each group with its count and a "See all" entry (the navbar
 * box's behaviour and thresholds). Favourites, recent records, menu items and "See all"
 * navigate in the app (external links open a new tab); search results open in a new tab.
 * Arrows move, Enter chooses, Escape closes; choosing closes the palette and clears its
 * text.
 */
export function CommandPalette({ opened, onClose }: CommandPaletteProps) {
  const search = useRecordSearch();
  const results = useGroupedResults(search);
  const navigate = useNavigate();
  const categories = useMenuItems();
  const favourites = useQuery(shelfQuery('favourites'));
  const recent = useQuery(shelfQuery('recent'));
  const listId = useId();

  const entries = useMemo(() => goToOptions(categories), [categories]);
  const goTo = useMemo(() => filterByWords(entries, search.query), [entries, search.query]);
  const favouriteOptions = useMemo(() => filterByWords(shelfOptions('favourites', favourites.data ?? []), search.query).slice(0, PALETTE_SHELF_SIZE), [favourites.data, search.query]);
  const recentOptions = useMemo(() => filterByWords(shelfOptions('recent', recent.data ?? []), search.query).slice(0, PALETTE_SHELF_SIZE), [recent.data, search.query]);
  const found = useMemo(() => (search.showsResults ? results.sections.map((s) => ({ ...s, name: s.name ?? 'Records' })) : []), [search.showsResults, results.sections]);

  const sections = useMemo(() => {
    const all: OptionSection<PaletteOption>[] = [
      { name: 'Favourites', options: favouriteOptions },
      { name: 'Recent', options: recentOptions },
      { name: 'Go to', options: goTo },
      ...found,
    ];
    return all.filter((section) => section.options.length > 0);
  }, [favouriteOptions, recentOptions, goTo, found]);
  const options = useMemo(() => sections.flatMap((s) => s.options), [sections]);
  const cursor = useActiveOption(options);

  const close = () => {
    search.clear();
    onClose();
  };

  const choose = (option: PaletteOption) => {
    if ('result' in option) results.open(option);
    else if ('to' in option) void navigate(option.to);
    else if (option.target.kind === 'internal') void navigate(option.target.to);
    else window.open(option.target.href, '_blank', 'noopener');
    close();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    cursor.onKeyDown(event, (index) => choose(options[index]!));
  };

  return (
    <Modal opened={opened} onClose={close} title="Command palette" size="lg" yOffset="10vh" radius="md">
      <TextInput
        data-autofocus
        role="combobox"
        aria-label="Search records and pages"
        aria-autocomplete="list"
        aria-expanded={options.length > 0}
        aria-controls={listId}
        aria-activedescendant={cursor.active >= 0 ? optionId(listId, cursor.active) : undefined}
        description={search.hint}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        classNames={{ description: classes.paletteHint }}
        placeholder="Go to a page or search records"
        autoComplete="off"
        spellCheck={false}
        leftSection={<SearchIcon />}
        value={search.query}
        onChange={(event) => search.change(event.currentTarget.value)}
        onKeyDown={onKeyDown}
      />
      <div className={classes.paletteList}>
        <OptionList id={listId} label="Commands" sections={sections} active={cursor.active} onHighlight={cursor.setActive} onChoose={choose} />
        {search.showsResults && <SearchStatus loading={search.loading} count={search.results.length} />}
      </div>
    </Modal>
  );
}
