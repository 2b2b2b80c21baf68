/**
 * The in-app notice of a lost connection: while the browser says it is offline, a bar at
 * the top of the page says so and what it means — what shows may be out of date, and a
 * save waits for the connection (the API client's time-outs then say what happened to it,
 * the user's input kept). It is a polite status, announced as it appears and as it goes
 * ("Back online.", for a few seconds).
 */
import { useEffect, useState } from 'react';
import { useOnline } from '../../lib/offline/online';
import classes from './OfflineNotice.module.css';

/** How long "Back online." stays. */
export const BACK_ONLINE_MS = 4000;

export function OfflineNotice() {
  const online = useOnline();
  // Offline at some point since the notice last cleared: set while rendering offline.
  const [wasOffline, setWasOffline] = useState(false);
  if (!online && !wasOffline) setWasOffline(true);
  useEffect(() => {
    if (!online || !wasOffline) return;
    const t = setTimeout(() => setWasOffline(false), BACK_ONLINE_MS);
    return () => clearTimeout(t);
  }, [online, wasOffline]);
  return (
    <div role="status" aria-live="polite" className={classes.area}>
      {!online && (
        <p className={classes.offline}>
          <strong>You are offline.</strong> What you see may be out of date, and changes cannot be saved until the connection is back.
        </p>
      )}
      {online && wasOffline && <p className={classes.back}>Back online.</p>}
    </div>
  );
}
