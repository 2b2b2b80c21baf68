import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** Whether the browser has a network connection (navigator.onLine, kept up to date). */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, () => navigator.onLine, () => true);
}

/** Whether the browser has a network connection now (true where it cannot tell). */
export function isOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

/** How long ago `at` (ms since epoch) was, in words: "just now", "12 minutes ago", "3 hours ago", "2 days ago". */
export function ageText(at: number, now: number = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 60) return 'just now';
  const words = new Intl.RelativeTimeFormat('en', { numeric: 'always' });
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return words.format(-minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return words.format(-hours, 'hour');
  return words.format(-Math.floor(hours / 24), 'day');
}
