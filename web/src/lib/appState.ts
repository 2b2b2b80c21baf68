import { create } from 'zustand';
import { readDefaultLists, saveDefaultLists } from './session/persist';

/** Default time an alert stays up (SPEC §9). */
export const ALERT_AUTO_HIDE_MS = 60_000;

/**
 * Time a success alert ("Project saved") stays up by default: long enough to read, short
 * enough not to linger over the page; a pointer or keyboard focus on it holds it.
 */
export const SUCCESS_ALERT_MS = 4_000;

/** The alert class of success messages: short-lived, announced politely (role="status"). */
export const SUCCESS_ALERT_CLASS = 'alert-success';

/** Whether an alert class is a success message's. */
export function isSuccessAlert(alertClass: AlertClass): boolean {
  return alertClass.trim().split(/\s+/)[0] === SUCCESS_ALERT_CLASS;
}

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
  /**
   * Auto-hide after this many ms; by default {@link SUCCESS_ALERT_MS} for a success alert,
   * else {@link ALERT_AUTO_HIDE_MS}.
   */
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
  /** Keeps the alert up while the user points at it or has focus in it (no auto-hide). */
  holdAlert(): void;
  /** Lets a held alert go: it hides after its full duration from now. */
  releaseAlert(): void;
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
/** How long the alert on screen stays up, for a restart after a hold. */
let shownFor = ALERT_AUTO_HIDE_MS;

function clearAutoHide(): void {
  if (autoHideTimer !== undefined) clearTimeout(autoHideTimer);
  autoHideTimer = undefined;
}

export const useAppStore = create<AppStore>()((set, get) => ({
  ...initialAppState,

  startLoading: ({ simpleSpinner = false } = {}) => set({ isLoading: true, simpleSpinner }),

  stopLoading: () => set({ isLoading: false }),

  raiseAlert: ({ title = '', message, type, duration }) => {
    const alert: AlertMessage = {
      title,
      message,
      type: type || DEFAULT_ALERT_CLASS,
      timestamp: Date.now(),
    };
    set({ alert, showAlert: true, isLoading: false });
    shownFor = duration ?? (isSuccessAlert(alert.type) ? SUCCESS_ALERT_MS : ALERT_AUTO_HIDE_MS);
    get().releaseAlert();
  },

  hideAlert: () => {
    clearAutoHide();
    set({ showAlert: false, alert: null });
  },

  holdAlert: () => clearAutoHide(),

  releaseAlert: () => {
    const alert = get().alert;
    clearAutoHide();
    if (!alert) return;
    autoHideTimer = setTimeout(() => {
      autoHideTimer = undefined;
      // Only if no newer alert replaced this one in the meantime.
      if (get().alert === alert) get().hideAlert();
    }, shownFor);
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
