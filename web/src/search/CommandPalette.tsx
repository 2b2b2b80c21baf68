import { Modal, TextInput } from '@mantine/core';
import { useId, useMemo, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { SearchIcon } from '../shell/icons';
import { useMenuItems } from '../shell/menu';
import { filterGoTo, goToOptions, type GoToOption } from './menuEntries';
import { OptionList, optionId, useActiveOption, type OptionSection } from './OptionList';
import { openResult, resultOptions, SearchStatus, type ResultOption } from './results';
import { useRecordSearch } from './useRecordSearch';
import classes from './Search.module.css';

type PaletteOption = GoToOption | ResultOption;

export interface CommandPaletteProps {
  opened: boolean;
  onClose(): void;
}

/**
 * The command palette (Ctrl+K / ⌘K), a dialog named "Command palette": one combobox
 * whose list holds "Go to" entries, the current role's menu items matching the text
 * (navigating in-app; external links open a new tab), and "Records", the global search
 * with the navbar box's behaviour and thresholds (results open in a new tab). Arrows
 * move, Enter chooses, Escape closes; choosing closes the palette and clears its text.
 */
export function CommandPalette({ opened, onClose }: CommandPaletteProps) {
  const search = useRecordSearch();
  const navigate = useNavigate();
  const categories = useMenuItems();
  const listId = useId();

  const entries = useMemo(() => goToOptions(categories), [categories]);
  const goTo = useMemo(() => filterGoTo(entries, search.query), [entries, search.query]);
  const records = useMemo(() => (search.showsResults ? resultOptions(search.results) : []), [search.showsResults, search.results]);
  const options = useMemo<PaletteOption[]>(() => [...goTo, ...records], [goTo, records]);
  const cursor = useActiveOption(options);

  const sections: OptionSection<PaletteOption>[] = [
    { name: 'Go to', options: goTo },
    { name: 'Records', options: records },
  ].filter((section) => section.options.length > 0);

  const close = () => {
    search.clear();
    onClose();
  };

  const choose = (option: PaletteOption) => {
    if ('result' in option) openResult(option.result);
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
        {search.showsResults && <SearchStatus loading={search.loading} count={records.length} />}
      </div>
    </Modal>
  );
}
