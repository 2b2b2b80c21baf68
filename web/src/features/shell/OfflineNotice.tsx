/**
 * The in-app notice of a lost connection: while the browser says it is offline, a bar at
 * the top of the page says so and what it means — what shows may be out of date (pages
 * opened lately show the copies kept on the device, with their age), and a save is kept on
 * the device and sent when the connection is back (features/records/offline). It is a polite status, announced as it appears and as it goes
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
          <strong>You are offline.</strong> What you see may be out of date; changes you save are kept on this device and sent when the connection is back.
        </p>
      )}
      {online && wasOffline && <p className={classes.back}>Back online.</p>}
    </div>
  );
}
