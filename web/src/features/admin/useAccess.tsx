/**
 * The access setup shared by the three Administration pages, and its save: every save
 * PUTs the whole file with the version it was read at. When another administrator saved
 * first (412) the page says so and shows their version; when the file has problems (422)
 * they come back as field problems for the page to show where they belong.
 */
import { Anchor, Group } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../lib/paths';
import { fieldProblems, failureMessage, type FieldProblem } from '../reports';
import { fetchAccess, isStale, saveAccess, STALE_MESSAGE, type AccessFile, type AccessSetup } from './access';
import { recordsKey } from '../../lib/queryKeys';
import classes from './AdminPages.module.css';

export type SaveOutcome = { ok: true; summary: string } | { ok: false; problems: FieldProblem[]; message: string; stale: boolean };

export function accessKey() {
  return [...recordsKey(), 'admin', 'access'] as const;
}

export function useAccess() {
  const client = useQueryClient();
  const query = useQuery({ queryKey: accessKey(), queryFn: ({ signal }) => fetchAccess(signal) });
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);

  /** Saves `file`; `done` says what was saved in words (else the server's summary). */
  async function save(file: AccessFile, done?: string): Promise<SaveOutcome> {
    const setup = query.data;
    if (!setup) return { ok: false, problems: [], message: 'Not loaded yet.', stale: false };
    setSaving(true);
    setNotice(null);
    try {
      const saved = await saveAccess(file, setup.version);
      client.setQueryData<AccessSetup>(accessKey(), { ...setup, file: saved.file, version: saved.version });
      setNotice({ tone: 'ok', text: saved.summary === 'no change' ? 'Saved (nothing changed).' : (done ?? `Saved: ${saved.summary}.`) });
      return { ok: true, summary: saved.summary };
    } catch (error) {
      const stale = isStale(error);
      const message = stale ? STALE_MESSAGE : failureMessage(error);
      setNotice({ tone: 'error', text: message });
      if (stale) await client.invalidateQueries({ queryKey: accessKey() });
      return { ok: false, problems: fieldProblems(error), message, stale };
    } finally {
      setSaving(false);
    }
  }

  return { query, save, saving, notice };
}

/**
 * The result of the last save, announced to screen readers. Its room is kept whether or not
 * there is a result (a line's height), so a save moves nothing under it: the next click
 * lands where it was aimed. `idle` fills it before the first save.
 */
export function SaveNotice({ notice, idle }: { notice: { tone: 'ok' | 'error'; text: string } | null; idle?: string }) {
  return (
    <div aria-live="polite" data-testid="save-notice" className={classes.saveNotice}>
      {notice ? (
        <div role={notice.tone === 'error' ? 'alert' : 'status'} data-tone={notice.tone} className={classes.saveResult}>
          {notice.text}
        </div>
      ) : (
        idle && <span className={classes.saveIdle}>{idle}</span>
      )}
    </div>
  );
}

/** Links between the three pages. */
export function AdminNav({ current }: { current: 'users' | 'roles' | 'menus' }) {
  const links: { key: typeof current; to: string; label: string }[] = [
    { key: 'users', to: paths.adminUsers, label: 'Users' },
    { key: 'roles', to: paths.adminRoles, label: 'Roles' },
    { key: 'menus', to: paths.adminMenus, label: 'Menus' },
  ];
  return (
    <Group gap="md" component="nav" aria-label="Administration">
      {links.map((l) => (
        <Anchor key={l.key} component={Link} to={l.to} aria-current={l.key === current ? 'page' : undefined} fw={l.key === current ? 700 : 400}>
          {l.label}
        </Anchor>
      ))}
    </Group>
  );
}
