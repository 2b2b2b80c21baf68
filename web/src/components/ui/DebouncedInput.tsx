import { TextInput, type TextInputProps } from '@mantine/core';
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent, type KeyboardEvent } from 'react';
import { createDebouncer, type DebounceOptions, type Debouncer } from './debounce';

/** The events the debounce listens to; SPEC §5: keyup by default. */
export type DebounceEvent = 'keyup' | 'keydown' | 'input';

type InputEvent = KeyboardEvent<HTMLInputElement> | FormEvent<HTMLInputElement>;

export interface DebouncedInputProps extends Omit<TextInputProps, 'value' | 'defaultValue' | 'onChange'>, DebounceOptions {
  /** Controlled value; leave out for an uncontrolled input. */
  value?: string;
  defaultValue?: string;
  /** Every change, at once (for a controlled input). */
  onChange?: (value: string, event: ChangeEvent<HTMLInputElement>) => void;
  /** The debounced call (SPEC §5). */
  onDebounced: (value: string, event: InputEvent | undefined) => void;
  /** Events that feed the debounce; ["keyup"] by default. */
  listenTo?: readonly DebounceEvent[];
}

/**
 * `createDebouncer` bound to a component's life: the newest `call` and `options` are used
 * on every event, and a pending call is dropped on unmount.
 */
export function useDebouncer<E>(call: (value: string, event: E | undefined) => void, options: DebounceOptions): Debouncer<E> {
  const latest = useRef({ call, options });
  const current = useRef<Debouncer<E> | null>(null);
  useEffect(() => {
    latest.current = { call, options };
  });
  useEffect(() => {
    const debouncer = createDebouncer<E>(
      (value, event) => latest.current.call(value, event),
      () => latest.current.options,
    );
    current.current = debouncer;
    return () => {
      debouncer.cancel();
      current.current = null;
    };
  }, []);
  // Handlers read the debouncer when events arrive, never during render.
  const [handle] = useState<Debouncer<E>>(() => ({
    handle: (value, key, event) => current.current?.handle(value, key, event),
    cancel: () => current.current?.cancel(),
    pending: () => current.current?.pending() ?? false,
  }));
  return handle;
}

const KEYUP: readonly DebounceEvent[] = ['keyup'];

/** A text input with the debounce behaviour of SPEC §5. */
export function DebouncedInput({
  delay,
  trim,
  cancelOnEmpty,
  lock,
  unlock,
  fireOnEmpty,
  onDebounced,
  listenTo = KEYUP,
  onChange,
  onKeyUp,
  onKeyDown,
  onInput,
  ...input
}: DebouncedInputProps) {
  const debouncer = useDebouncer<InputEvent>(onDebounced, { delay, trim, cancelOnEmpty, lock, unlock, fireOnEmpty });
  const listens = (name: DebounceEvent) => listenTo.includes(name);

  return (
    <TextInput
      {...input}
      onChange={onChange ? (event) => onChange(event.currentTarget.value, event) : undefined}
      onKeyUp={(event) => {
        onKeyUp?.(event);
        if (listens('keyup')) debouncer.handle(event.currentTarget.value, event.key, event);
      }}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        if (listens('keydown')) debouncer.handle(event.currentTarget.value, event.key, event);
      }}
      onInput={(event) => {
        onInput?.(event);
        if (listens('input')) debouncer.handle(event.currentTarget.value, undefined, event);
      }}
    />
  );
}
