/**
 * A list's columns in order, each with Up, Down and Remove: the list editor's and the list
 * page's column chooser's. The moved column's button keeps the keyboard focus (its row
 * moves in the page); after a removal, the next column's Remove has it.
 */
import { Button, Text } from '@mantine/core';
import { useLayoutEffect, useRef } from 'react';
import { move } from './listEditor';
import classes from './records.module.css';

export interface ColumnOrderProps {
  /** Prefix of the buttons' ids (two lists may share a page). */
  id: string;
  columns: readonly string[];
  labelOf: (name: string) => string;
  /** A short note after a column's label (e.g. "not sortable"). */
  noteOf?: (name: string) => string | undefined;
  onChange: (columns: string[]) => void;
  /** The last column cannot be removed (a table needs one). */
  keepOne?: boolean;
}

export function ColumnOrder({ id, columns, labelOf, noteOf, onChange, keepOne = false }: ColumnOrderProps) {
  const focusAfter = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (!focusAfter.current) return;
    document.getElementById(focusAfter.current)?.focus();
    focusAfter.current = null;
  });
  const buttonId = (name: string, which: 'up' | 'down' | 'remove') => `${id}-${name}-${which}`;

  function moveColumn(index: number, delta: number) {
    const name = columns[index]!;
    const next = move(columns, index, delta);
    onChange(next);
    const at = next.indexOf(name);
    const direction = at === 0 ? 'down' : at === next.length - 1 ? 'up' : delta < 0 ? 'up' : 'down';
    focusAfter.current = buttonId(name, next.length === 1 ? 'remove' : direction);
  }

  function remove(index: number) {
    const next = columns.filter((_, i) => i !== index);
    onChange(next);
    const neighbour = next[Math.min(index, next.length - 1)];
    if (neighbour) focusAfter.current = buttonId(neighbour, 'remove');
  }

  return (
    <ol className={classes.columnList} aria-label="Columns">
      {columns.map((name, index) => {
        const label = labelOf(name);
        const note = noteOf?.(name);
        return (
          <li key={name} className={classes.columnItem} data-testid="editor-column">
            <Text size="sm" fw={500} truncate>
              {index + 1}. {label}
              {note && (
                <Text span size="xs" c="dimmed" fw={400}>
                  {' '}
                  ({note})
                </Text>
              )}
            </Text>
            <Button id={buttonId(name, 'up')} size="compact-xs" variant="default" disabled={index === 0} onClick={() => moveColumn(index, -1)} aria-label={`Move ${label} up`}>
              Up
            </Button>
            <Button
              id={buttonId(name, 'down')}
              size="compact-xs"
              variant="default"
              disabled={index === columns.length - 1}
              onClick={() => moveColumn(index, 1)}
              aria-label={`Move ${label} down`}
            >
              Down
            </Button>
            <Button
              id={buttonId(name, 'remove')}
              size="compact-xs"
              variant="subtle"
              color="red"
              disabled={keepOne && columns.length === 1}
              onClick={() => remove(index)}
              aria-label={`Remove ${label}`}
            >
              Remove
            </Button>
          </li>
        );
      })}
    </ol>
  );
}
