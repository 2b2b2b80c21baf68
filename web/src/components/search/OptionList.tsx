import { Fragment, useEffect, useState, type KeyboardEvent } from 'react';
import classes from './Search.module.css';

/** One entry of a combobox's list: a name and an optional line of detail. */
export interface ListOption {
  /** Unique within the list (React key). */
  key: string;
  name: string;
  detail?: string;
  /** Shown as a link: an entry that leads to more (a group's "See all"), not to one record. */
  link?: boolean;
}

/** A run of options, named when the list has several (the palette's "Go to", "Records"). */
export interface OptionSection<T extends ListOption> {
  name?: string;
  options: readonly T[];
}

/** The DOM id of the option at `index` (for the input's aria-activedescendant). */
export function optionId(listId: string, index: number): string {
  return `${listId}-option-${index}`;
}

export interface ActiveOption {
  /** Index of the highlighted option, -1 for none. */
  active: number;
  setActive(index: number): void;
  /**
   * The combobox input's keys: ArrowDown/ArrowUp move the highlight (wrapping round),
   * Enter calls `choose` with the highlighted option. Returns whether it handled the key.
   */
  onKeyDown(event: KeyboardEvent<HTMLInputElement>, choose: (index: number) => void): boolean;
}

/**
 * The highlighted option of a list (aria-activedescendant pattern: focus stays in the
 * input). A new `options` array (new results) drops the highlight.
 */
export function useActiveOption(options: readonly unknown[]): ActiveOption {
  const [cursor, setCursor] = useState<{ options: readonly unknown[]; index: number }>({ options, index: -1 });
  const active = cursor.options === options ? cursor.index : -1;
  const setActive = (index: number) => setCursor({ options, index });
  const count = options.length;

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>, choose: (index: number) => void) => {
    if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && count > 0) {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive(active < 0 ? (step > 0 ? 0 : count - 1) : (active + step + count) % count);
      return true;
    }
    if (event.key === 'Enter' && active >= 0 && active < count) {
      event.preventDefault();
      choose(active);
      return true;
    }
    return false;
  };

  return { active, setActive, onKeyDown };
}

export interface OptionListProps<T extends ListOption> {
  id: string;
  /** The listbox's accessible name. */
  label: string;
  sections: readonly OptionSection<T>[];
  active: number;
  onHighlight(index: number): void;
  onChoose(option: T): void;
}

/**
 * A role=listbox of role=option entries (name and detail), grouped by section. Options are
 * not focusable: the owning input keeps focus and points at the highlighted one. Pressing
 * the mouse on the list does not move focus, so the input's blur does not close it before
 * the click lands.
 */
export function OptionList<T extends ListOption>({ id, label, sections, active, onHighlight, onChoose }: OptionListProps<T>) {
  useEffect(() => {
    if (active >= 0) document.getElementById(optionId(id, active))?.scrollIntoView({ block: 'nearest' });
  }, [id, active]);
  let index = 0;
  const renderOption = (option: T) => {
    const at = index++;
    return (
      <li
        key={option.key}
        id={optionId(id, at)}
        role="option"
        aria-selected={at === active}
        data-active={at === active || undefined}
        data-link={option.link || undefined}
        className={classes.option}
        onMouseMove={() => at !== active && onHighlight(at)}
        onClick={() => onChoose(option)}
      >
        <span className={classes.optionName}>{option.name}</span>
        {option.detail && <span className={classes.optionDetail}>{option.detail}</span>}
      </li>
    );
  };
  return (
    <ul id={id} role="listbox" aria-label={label} className={classes.list} onMouseDown={(event) => event.preventDefault()}>
      {sections.map((section, at) =>
        section.name ? (
          <li key={section.name} role="presentation">
            <div className={classes.sectionName} aria-hidden="true">
              {section.name}
            </div>
            <ul role="group" aria-label={section.name} className={classes.list}>
              {section.options.map(renderOption)}
            </ul>
          </li>
        ) : (
          <Fragment key={at}>{section.options.map(renderOption)}</Fragment>
        ),
      )}
    </ul>
  );
}
