import { act, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { DebouncedInput, type DebouncedInputProps } from './DebouncedInput';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** Types `text` one key at a time: input then keyup, as a browser does. */
function type(input: HTMLElement, text: string, start = '') {
  let value = start;
  for (const key of text) {
    value += key;
    fireEvent.keyDown(input, { key });
    fireEvent.change(input, { target: { value } });
    fireEvent.input(input, { target: { value } });
    fireEvent.keyUp(input, { key });
  }
}

function Controlled(props: Omit<DebouncedInputProps, 'value' | 'onChange'>) {
  const [value, setValue] = useState('');
  return <DebouncedInput {...props} value={value} onChange={setValue} />;
}

describe('DebouncedInput', () => {
  it('calls onDebounced 300 ms after the last keyup, with the typed value', () => {
    const onDebounced = vi.fn();
    renderWithProviders(<Controlled label="Search" onDebounced={onDebounced} />);
    const input = screen.getByLabelText('Search');
    type(input, 'acme');
    expect(input).toHaveValue('acme');
    act(() => void vi.advanceTimersByTime(299));
    expect(onDebounced).not.toHaveBeenCalled();
    act(() => void vi.advanceTimersByTime(1));
    expect(onDebounced).toHaveBeenCalledOnce();
    expect(onDebounced.mock.calls[0]![0]).toBe('acme');
  });

  it('takes the delay as text, fires at once on Enter, and honours lock', () => {
    const onDebounced = vi.fn();
    const { rerender } = renderWithProviders(<DebouncedInput label="Name" delay="1s" onDebounced={onDebounced} />);
    const input = screen.getByLabelText('Name');
    type(input, 'ab');
    act(() => void vi.advanceTimersByTime(999));
    expect(onDebounced).not.toHaveBeenCalled();
    fireEvent.keyUp(input, { key: 'Enter' });
    expect(onDebounced).toHaveBeenCalledOnce();

    rerender(<DebouncedInput label="Name" delay="1s" lock onDebounced={onDebounced} />);
    fireEvent.keyUp(input, { key: 'Enter' });
    expect(onDebounced).toHaveBeenCalledOnce();
    act(() => void vi.advanceTimersByTime(1000));
    expect(onDebounced).toHaveBeenCalledTimes(2);
  });

  it('listens to other events when asked', () => {
    const onDebounced = vi.fn();
    renderWithProviders(<DebouncedInput label="Code" listenTo={['input']} delay={100} onDebounced={onDebounced} />);
    const input = screen.getByLabelText('Code');
    fireEvent.input(input, { target: { value: 'x' } });
    fireEvent.keyUp(input, { key: 'Enter' }); // keyup is not listened to
    expect(onDebounced).not.toHaveBeenCalled();
    act(() => void vi.advanceTimersByTime(100));
    expect(onDebounced).toHaveBeenCalledOnce();
  });

  it('drops a pending call on unmount', () => {
    const onDebounced = vi.fn();
    const { unmount } = renderWithProviders(<DebouncedInput label="Name" onDebounced={onDebounced} />);
    type(screen.getByLabelText('Name'), 'abc');
    unmount();
    act(() => void vi.advanceTimersByTime(1000));
    expect(onDebounced).not.toHaveBeenCalled();
  });
});
