import { createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 7, dark: 5 },
  defaultRadius: 'md',
  // Keyboard users get a visible ring on every focusable element; mouse clicks do not.
  focusRing: 'auto',
  // Menus and dialogs appear without animation for people who ask for reduced motion.
  respectReducedMotion: true,
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
  components: {
    // Mantine's scroll lock injects a <style> element without the page's CSP nonce, which
    // the server's policy refuses: no dialog locks page scrolling (they are centred and
    // trap focus either way).
    Modal: { defaultProps: { lockScroll: false } },
  },
});
