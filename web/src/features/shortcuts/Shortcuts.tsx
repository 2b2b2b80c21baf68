/**
 * The keyboard shortcuts, app-wide (see keys.ts): mounted once in the root layout while
 * signed in. It listens on the document, shows a small "Go to…" note after `g`, and the
 * sheet of shortcuts on `?` — a dialog named "Keyboard shortcuts", closed with Escape.
 */
import { Kbd, Modal, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useRouteMeta } from '../../lib/meta';
import { ID_PARAM, paths } from '../../lib/paths';
import { editPathOf, kindOfPath, listPath, kindsQuery } from '../records';
import { actionOf, dialogOpen, GO_TIMEOUT_MS, goLetters, searchBox, type GoTarget } from './keys';
import classes from './Shortcuts.module.css';

/** The modifier of the command palette's shortcut, as this platform's keyboard shows it. */
const MOD = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent) ? '⌘' : 'Ctrl';

export function Shortcuts() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [searchParams] = useSearchParams();
  const meta = useRouteMeta();
  const kinds = useQuery(kindsQuery());
  const targets = useMemo(() => goLetters(kinds.data ?? []), [kinds.data]);
  const [sheet, setSheet] = useState(false);
  const goTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // The record shown, when the role may edit it (`e`).
  const kind = kindOfPath(kinds.data, pathname);
  const id = Number(searchParams.get(ID_PARAM));
  const editTarget = meta.isView && kind?.canEdit && Number.isInteger(id) && id > 0 ? editPathOf(kind, id) : undefined;

  // After `g`, until a letter, another key or the time-out (a ref: two keys may come
  // before a render).
  const going = useRef(false);
  const [hint, setHint] = useState(false);

  function stopGoing() {
    clearTimeout(goTimer.current);
    going.current = false;
    setHint(false);
  }

  const onKeyDown = useEffectEvent((event: KeyboardEvent) => {
    const action = actionOf(event, going.current, dialogOpen());
    if (going.current) stopGoing();
    if (!action) return;
    switch (action.kind) {
      case 'search': {
        const box = searchBox();
        if (!box) return;
        event.preventDefault();
        box.focus();
        return;
      }
      case 'sheet':
        event.preventDefault();
        setSheet(true);
        return;
      case 'edit':
        if (!editTarget) return;
        event.preventDefault();
        void navigate(editTarget);
        return;
      case 'go-wait':
        event.preventDefault();
        going.current = true;
        setHint(true);
        goTimer.current = setTimeout(stopGoing, GO_TIMEOUT_MS);
        return;
      case 'go': {
        const target = targets.find((t) => t.letter === action.letter);
        if (!target) return;
        event.preventDefault();
        void navigate(target.kind ? listPath(target.kind) : paths.home);
        return;
      }
    }
  });

  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKeyDown(event);
    document.addEventListener('keydown', listener);
    return () => {
      document.removeEventListener('keydown', listener);
      clearTimeout(goTimer.current);
    };
  }, []);

  return (
    <>
      {/* (Its test id says the shortcuts are listening: they load a moment after a fresh page.) */}
      <div role="status" aria-live="polite" className={hint ? classes.hint : undefined} data-testid="shortcuts">
        {hint ? (
          <>
            Go to… <VisuallyHidden>press a letter; the shortcuts sheet lists them.</VisuallyHidden>
          </>
        ) : (
          ''
        )}
      </div>
      <ShortcutSheet opened={sheet} onClose={() => setSheet(false)} targets={targets} canEdit={!!editTarget} />
    </>
  );
}

function Keys({ keys }: { keys: string[] }) {
  return (
    <span className={classes.keys}>
      {keys.map((k, i) => (
        <Fragment key={i}>
          {i > 0 && (
            <Text span size="xs" c="dimmed">
              then
            </Text>
          )}
          <Kbd size="sm">{k}</Kbd>
        </Fragment>
      ))}
    </span>
  );
}

function Group({ title, rows }: { title: string; rows: { keys: string[]; what: string }[] }) {
  return (
    <Table className={classes.table} verticalSpacing={4} aria-label={title}>
      <caption className={classes.caption}>{title}</caption>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.keys.join(' ')}>
            <Table.Th scope="row" className={classes.keyCell}>
              <Keys keys={row.keys} />
            </Table.Th>
            <Table.Td>{row.what}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The sheet of shortcuts: what each key does, the `g` letters from the registry. */
export function ShortcutSheet({ opened, onClose, targets, canEdit }: { opened: boolean; onClose: () => void; targets: GoTarget[]; canEdit: boolean }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Keyboard shortcuts" size="lg" centered>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Not while typing in a box. Press <Kbd size="xs">Esc</Kbd> to close.
        </Text>
        <Group
          title="Anywhere"
          rows={[
            { keys: ['/'], what: 'Search (the list’s own search on a list page)' },
            { keys: [`${MOD} K`], what: 'Command palette: go to a page or find a record' },
            { keys: ['?'], what: 'This sheet' },
          ]}
        />
        <Group title="Go to" rows={targets.map((t) => ({ keys: ['g', t.letter], what: t.label }))} />
        <Group
          title="On a record or a list"
          rows={[
            { keys: ['e'], what: canEdit ? 'Edit this record' : 'Edit the record shown (when your role may)' },
            { keys: ['x'], what: 'Select or unselect the list row that has the focus' },
          ]}
        />
      </Stack>
    </Modal>
  );
}
