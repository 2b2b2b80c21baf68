import { Button, Group, Modal, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useBlocker, type Location } from 'react-router';

export interface LeaveGuardProps {
  /** The form has unsaved changes. */
  dirty: boolean;
  /**
   * Navigations that go through unasked (the form's own sub-tabs, the one after a save).
   * Called when a navigation starts.
   */
  allows: (next: Location) => boolean;
}

/**
 * Asks before unsaved changes are lost: an in-app navigation away from the form (a link,
 * Back) is held and a dialog offers "Stay" or "Leave"; closing or reloading the tab gets
 * the browser's own question (`beforeunload`). Nothing is asked while `dirty` is false.
 */
export function LeaveGuard({ dirty, allows }: LeaveGuardProps) {
  const blocker = useBlocker(({ nextLocation }) => dirty && !allows(nextLocation));

  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);

  const blocked = blocker.state === 'blocked';
  return (
    <Modal opened={blocked} onClose={() => blocker.reset?.()} title="Leave without saving?" centered>
      <Text size="sm">Your changes on this form are not saved. If you leave now they are lost.</Text>
      <Group justify="flex-end" mt="lg" gap="sm">
        <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
          Stay
        </Button>
        <Button color="red" onClick={() => blocker.proceed?.()}>
          Leave
        </Button>
      </Group>
    </Modal>
  );
}
