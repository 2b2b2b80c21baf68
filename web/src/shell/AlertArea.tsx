import { Alert, type MantineColor } from '@mantine/core';
import { useAppStore, selectAlertClass, type AlertClass } from './appState';
import classes from './AlertArea.module.css';

const colorByClass: Record<string, MantineColor> = {
  'text-primary': 'indigo',
  'alert-primary': 'indigo',
  'alert-info': 'cyan',
  'alert-success': 'teal',
  'alert-warning': 'yellow',
  'alert-danger': 'red',
};

export function alertColor(alertClass: AlertClass): MantineColor {
  return colorByClass[alertClass] ?? 'indigo';
}

/**
 * The app's one alert (SPEC §2 root layout). The region is always in the document; the
 * alert inside it (role="alert") appears while `showAlert` is set, and its close button
 * hides it.
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
          className={classes.alert}
          data-alert-class={alertClass}
          color={alertColor(alertClass)}
          variant="light"
          radius="md"
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
