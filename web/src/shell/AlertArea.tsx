import { Alert, type MantineColor } from '@mantine/core';
import type { ReactNode } from 'react';
import { colorOfClass, contextOf } from '../components/ui/styleClass';
import { useAppStore, selectAlertClass, type AlertClass } from './appState';
import { AlertIcon, CheckCircleIcon, InfoIcon } from './icons';
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
 * The app's one alert (SPEC §2 root layout). The region is always in the document; the
 * alert inside it (role="alert") appears while `showAlert` is set, and its close button
 * ("Close alert") hides it.
 */
export function AlertArea() {
  const showAlert = useAppStore((s) => s.showAlert);
  const alert = useAppStore((s) => s.alert);
  const alertClass = useAppStore(selectAlertClass);
  const hideAlert = useAppStore((s) => s.hideAlert);

  return (
    <div className={classes.area} data-testid="alert-area">
      {showAlert && alert && (
        <Alert
          key={alert.timestamp}
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
