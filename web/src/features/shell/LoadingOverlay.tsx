import { Loader } from '@mantine/core';
import { useAppStore } from '../../lib/appState';
import classes from './LoadingOverlay.module.css';

function Rocket() {
  return (
    <svg className={classes.rocket} viewBox="0 0 64 64" aria-hidden="true" focusable="false" data-overlay="rocket">
      <g className={classes.flame}>
        <path d="M26 46 L32 60 L38 46 Z" fill="#fd7e14" />
        <path d="M29 46 L32 54 L35 46 Z" fill="#ffd43b" />
      </g>
      <path d="M32 4 C44 14 44 32 40 46 H24 C20 32 20 14 32 4 Z" fill="#4c6ef5" />
      <circle cx="32" cy="22" r="5" fill="#edf2ff" />
      <path d="M24 34 L14 46 H24 Z" fill="#364fc7" />
      <path d="M40 34 L50 46 H40 Z" fill="#364fc7" />
    </svg>
  );
}

/** Full-screen loading overlay (SPEC §2): a plain spinner or the rocket animation. */
export function LoadingOverlay() {
  const isLoading = useAppStore((s) => s.isLoading);
  const simpleSpinner = useAppStore((s) => s.simpleSpinner);
  if (!isLoading) return null;
  return (
    <div className={classes.overlay} role="status" aria-label="Loading" aria-live="polite">
      {simpleSpinner ? (
        <Loader size="lg" data-overlay="spinner" />
      ) : (
        <div className={classes.launch}>
          <Rocket />
          <span className={classes.caption} aria-hidden="true">
            Loading…
          </span>
        </div>
      )}
    </div>
  );
}

/** Centered spinner used while the first route loads (the root route's HydrateFallback). */
export function PageSpinner() {
  return (
    <div className={classes.page} role="status" aria-label="Loading">
      <Loader size="lg" />
    </div>
  );
}
