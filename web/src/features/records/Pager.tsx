/**
 * The list page's paging: where the page is (rows, the count, "page N of ~M"), rows per
 * page, first / previous / next, and a page number to go to (see pageJump.ts for what the
 * keyset cursor allows).
 */
import { Button, Group, NativeSelect, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { ListParams } from './api';
import { formatCount, formatRecordCount } from './format';
import { jumpProblem, walkForward, type PageLink } from './pageJump';
import { PAGE_SIZES } from './listState';
import { listPageQuery } from './queries';
import type { ListCount } from './types';
import classes from './list.module.css';

/** The last page number of a list of `count` records, `size` per page (at least 1). */
export function lastPageOf(count: ListCount | null | undefined, size: number): number | null {
  return count ? Math.max(1, Math.ceil(count.total / size)) : null;
}

export interface PageWalk {
  /** Reading page `done` of `of` on the way. */
  progress: { done: number; of: number } | null;
  problem: string | null;
  go: (target: number) => Promise<void>;
  stop: () => void;
}

/**
 * Going to a page of a list: back is free; ahead, the pages between are read (one narrow
 * request each) and `onCursors` gets their cursors.
 */
export function usePageWalk(opts: {
  params: ListParams;
  /** The column to read on the way (the title: the least to send). */
  narrow: string | undefined;
  current: number;
  here: PageLink | undefined;
  lastPage: number | null;
  /** The last page comes from an estimated count. */
  estimated?: boolean;
  onBack: (page: number) => void;
  onCursors: (cursors: string[]) => void;
}): PageWalk {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<PageWalk['progress']>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // The walk under way; a new one, Stop, another list (a new request) or leaving the page ends it.
  const walking = useRef<AbortController | null>(null);
  const asked = JSON.stringify(opts.params);
  useEffect(() => () => walking.current?.abort(), [asked]);

  async function go(target: number) {
    const { params, narrow, current, here, lastPage, estimated, onBack, onCursors } = opts;
    const wrong = jumpProblem(target, current, lastPage, estimated);
    setProblem(wrong);
    if (wrong) return;
    if (target <= current) {
      onBack(target);
      return;
    }
    if (!here) return;
    walking.current?.abort();
    const walk = new AbortController();
    walking.current = walk;
    const steps = target - current;
    setProgress({ done: 0, of: steps });
    try {
      const { cursor: _cursor, ...base } = params;
      const read = async (cursor: string): Promise<PageLink> => {
        if (walk.signal.aborted) throw walk.signal.reason;
        return queryClient.fetchQuery(listPageQuery({ ...base, ...(narrow ? { columns: [narrow] } : {}), cursor }));
      };
      const result = await walkForward(here, steps, read, (done) => !walk.signal.aborted && setProgress({ done, of: steps }));
      if (walk.signal.aborted) return;
      if (result.ended) setProblem(`The list ends at page ${current + result.cursors.length}.`);
      if (result.cursors.length) onCursors(result.cursors);
    } catch (error) {
      if (!walk.signal.aborted) setProblem(`Could not go to page ${target}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      if (walking.current === walk) {
        walking.current = null;
        setProgress(null);
      }
    }
  }

  return {
    progress,
    problem,
    go,
    stop: () => {
      walking.current?.abort();
      walking.current = null;
      setProgress(null);
    },
  };
}

export interface PagerProps {
  page: number;
  size: number;
  rowsOnPage: number;
  count: ListCount | null | undefined;
  hasNext: boolean;
  busy: boolean;
  walk: PageWalk;
  onFirst: () => void;
  onPrevious: () => void;
  onNext: () => void;
  onSize: (size: number) => void;
}

export function Pager({ page, size, rowsOnPage, count, hasNext, busy, walk, onFirst, onPrevious, onNext, onSize }: PagerProps) {
  const [text, setText] = useState(String(page));
  const [shown, setShown] = useState(page);
  // The page changed (a button, Back): the box shows it.
  if (shown !== page) {
    setShown(page);
    setText(String(page));
  }
  const last = lastPageOf(count, size);
  const first = (page - 1) * size + 1;

  function submit(event: FormEvent) {
    event.preventDefault();
    const target = Number(text.trim());
    void walk.go(target);
  }

  return (
    <Group justify="space-between" gap="sm" wrap="wrap" component="nav" aria-label="Pages">
      <Group gap="xs" aria-live="polite">
        <Text size="sm" c="dimmed">
          {rowsOnPage > 0 ? `Rows ${formatCount(first)}–${formatCount(first + rowsOnPage - 1)}` : 'No rows'}
        </Text>
        {count && (
          <Text size="sm" fw={500} data-testid="list-total">
            {formatRecordCount(count.total, count.estimated)}
          </Text>
        )}
      </Group>
      <Group gap="xs" wrap="wrap">
        <NativeSelect
          aria-label="Rows per page"
          size="sm"
          value={String(size)}
          data={PAGE_SIZES.map((n) => ({ value: String(n), label: `${n} per page` }))}
          onChange={(e) => onSize(Number(e.currentTarget.value))}
        />
        <Button variant="default" size="sm" disabled={page === 1} onClick={onFirst}>
          First page
        </Button>
        <Button variant="default" size="sm" disabled={page === 1} onClick={onPrevious}>
          Previous page
        </Button>
        <form className={classes.pageJump} onSubmit={submit} aria-label="Go to page">
          <Text size="sm" component="label" htmlFor="list-page-number">
            Page
          </Text>
          <TextInput
            id="list-page-number"
            size="sm"
            inputMode="numeric"
            autoComplete="off"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            classNames={{ root: classes.pageInput }}
            aria-describedby={walk.problem ? 'list-page-problem' : undefined}
            aria-invalid={walk.problem ? true : undefined}
            data-testid="page-number"
          />
          {last !== null && (
            <Text size="sm" data-testid="page-count">
              of {count?.estimated ? '~' : ''}
              {formatCount(last)}
            </Text>
          )}
          <Button type="submit" variant="default" size="sm" loading={!!walk.progress}>
            Go
          </Button>
        </form>
        <Button variant="default" size="sm" disabled={!hasNext || busy} onClick={onNext}>
          Next page
        </Button>
      </Group>
      {(walk.progress || walk.problem) && (
        <Group gap="xs" w="100%" justify="flex-end" role="status">
          {walk.progress ? (
            <>
              <Text size="sm">
                Reading page {page + walk.progress.done} on the way ({walk.progress.done} of {walk.progress.of})…
              </Text>
              <Button variant="subtle" size="compact-sm" onClick={walk.stop}>
                Stop
              </Button>
            </>
          ) : (
            <Text size="sm" c="var(--mantine-color-error)" id="list-page-problem">
              {walk.problem}
            </Text>
          )}
        </Group>
      )}
    </Group>
  );
}
