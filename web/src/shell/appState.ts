import { create } from 'zustand';
import { readDefaultLists, saveDefaultLists } from '../session/persist';

/** Default time an alert stays up (SPEC §9). */
export const ALERT_AUTO_HIDE_MS = 60_000;

/** Style class used when an alert names none (SPEC §4: the primary text class). */
export const DEFAULT_ALERT_CLASS = 'text-primary';

/**
 * Alert style classes. `alert-danger` is what logout/role-switch failures use (SPEC §8).
 * Unknown classes render like the default.
 */
export type AlertClass =
  | 'text-primary'
  | 'alert-primary'
  | 'alert-info'
  | 'alert-success'
  | 'alert-warning'
  | 'alert-danger'
  | (string & {});

export interface AlertMessage {
  title: string;
  message: string;
  /** Style class; {@link DEFAULT_ALERT_CLASS} when empty. */
  type: AlertClass;
  /** When it was shown (ms since epoch). */
  timestamp: number;
}

export interface ShowAlertOptions {
  title?: string;
  message: string;
  type?: AlertClass;
  /** Auto-hide after this many ms; {@link ALERT_AUTO_HIDE_MS} by default. */
  duration?: number;
}

/** App state (SPEC §3): loading overlay, the one alert, chosen default lists. */
export interface AppState {
  isLoading: boolean;
  /** Overlay style while loading: plain spinner, or the rocket animation when false. */
  simpleSpinner: boolean;
  showAlert: boolean;
  alert: AlertMessage | null;
  /** Chosen saved-list id per record type. */
  defaultLists: Record<string, string>;
}

export interface AppActions {
  /** SPEC §4 app-start: switches loading on. */
  startLoading(options?: { simpleSpinner?: boolean }): void;
  stopLoading(): void;
  /** Records a timestamp, stops loading and shows the alert; schedules its auto-hide. */
  raiseAlert(options: ShowAlertOptions): void;
  /** Clears the alert at once. */
  hideAlert(): void;
  /**
   * Remembers the default saved list for a record type, in UI state and in local storage
   * under `defaultLists` (SPEC §4).
   */
  setDefaultList(recordType: string, listId: string): void;
  /** SPEC §4 session restore: the default lists come back from local storage. */
  restoreDefaultLists(): void;
}

export type AppStore = AppState & AppActions;

export const initialAppState: AppState = {
  isLoading: false,
  simpleSpinner: false,
  showAlert: false,
  alert: null,
  defaultLists: {},
};

let autoHideTimer: ReturnType<typeof setTimeout> | undefined;

function clearAutoHide(): void {
  if (autoHideTimer !== undefined) clearTimeout(autoHideTimer);
  autoHideTimer = undefined;
}

export const useAppStore = create<AppStore>()((set, get) => ({
  ...initialAppState,

  startLoading: ({ simpleSpinner = false } = {}) => set({ isLoading: true, simpleSpinner }),

  stopLoading: () => set({ isLoading: false }),

  raiseAlert: ({ title = '', message, type, duration = ALERT_AUTO_HIDE_MS }) => {
    const alert: AlertMessage = {
      title,
      message,
      type: type || DEFAULT_ALERT_CLASS,
      timestamp: Date.now(),
    };
    clearAutoHide();
    set({ alert, showAlert: true, isLoading: false });
    autoHideTimer = setTimeout(() => {
      autoHideTimer = undefined;
      // Only if no newer alert replaced this one in the meantime.
      if (get().alert === alert) get().hideAlert();
    }, duration);
  },

  hideAlert: () => {
    clearAutoHide();
    set({ showAlert: false, alert: null });
  },

  setDefaultList: (recordType, listId) => {
    const defaultLists = { ...get().defaultLists, [recordType]: listId };
    saveDefaultLists(defaultLists);
    set({ defaultLists });
  },

  restoreDefaultLists: () => set({ defaultLists: readDefaultLists() }),
}));

/** Resets the store to its initial state; for tests. */
export function resetAppStore(): void {
  clearAutoHide();
  useAppStore.setState({ ...initialAppState });
}

// Derived alert fields (SPEC §3: alertClass, alertTitle, alertMessage).
export const selectAlertClass = (s: AppState): AlertClass => s.alert?.type || DEFAULT_ALERT_CLASS;
export const selectAlertTitle = (s: AppState): string => s.alert?.title ?? '';
export const selectAlertMessage = (s: AppState): string => s.alert?.message ?? '';
