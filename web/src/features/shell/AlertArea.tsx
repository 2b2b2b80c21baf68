import { Alert, type MantineColor } from '@mantine/core';
import type { ReactNode } from 'react';
import { colorOfClass, contextOf } from '../../components/ui/styleClass';
import { isSuccessAlert, useAppStore, selectAlertClass, type AlertClass } from '../../lib/appState';
import { AlertIcon, CheckCircleIcon, InfoIcon } from '../../components/icons';
import classes from './AlertArea.module.css';

/**
 * The color of an alert class (SPEC §3/§4): "alert-danger" → red, "alert-success" → teal,
 * "alert-warning" → yellow, "alert-info" → cyan; the default "text-primary" and anything
 * unknown → the primary color.
 */
export function alertColor(alertClass: AlertClass): MantineColor {
  return colorOfClass(alertClass, 'indigo');
}

function alertIcon(alertClass: AlertClass): ReactNode {
  switch (contextOf(alertClass.split(/\s+/)[0] ?? '')) {
    case 'danger':
    case 'warning':
      return <AlertIcon />;
    case 'success':
      return <CheckCircleIcon />;
    default:
      return <InfoIcon />;
  }
}

/**
 * The app's one alert (SPEC §2 root layout). The area is always in the document, in the
 * bottom corner of the window (full width at the bottom on a phone), where it covers no
 * title; the alert inside it appears while `showAlert` is set, and its close button ("Close
 * alert") hides it. A success message is a polite status (role="status", gone after
 * SUCCESS_ALERT_MS, 4 s); anything else is an alert (role="alert", SPEC §4's 60 s).
 * Pointing at the alert or focusing into it holds it until the pointer or focus leaves.
 */
export function AlertArea() {
  const showAlert = useAppStore((s) => s.showAlert);
  const alert = useAppStore((s) => s.alert);
  const alertClass = useAppStore(selectAlertClass);
  const hideAlert = useAppStore((s) => s.hideAlert);
  const holdAlert = useAppStore((s) => s.holdAlert);
  const releaseAlert = useAppStore((s) => s.releaseAlert);
  const success = isSuccessAlert(alertClass);

  return (
    <div className={classes.area} data-testid="alert-area">
      {showAlert && alert && (
        <Alert
          key={alert.timestamp}
          role={success ? 'status' : 'alert'}
          aria-live={success ? 'polite' : undefined}
          onMouseEnter={holdAlert}
          onMouseLeave={releaseAlert}
          onFocus={holdAlert}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget)) releaseAlert();
          }}
          className={`${classes.alert} ${alertClass}`}
          data-alert-class={alertClass}
          color={alertColor(alertClass)}
          variant="light"
          radius="md"
          icon={alertIcon(alertClass)}
          title={alert.title || undefined}
          withCloseButton
          closeButtonLabel="Close alert"
          onClose={hideAlert}
        >
          {alert.message}
        </Alert>
      )}
    </div>
  );
}
