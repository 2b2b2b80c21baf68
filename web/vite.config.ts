import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The Go server (`portico serve`) embeds dist/ and serves it; during `vite dev` the API
// is proxied to a locally running server.
const apiTarget = process.env.PORTICO_API_URL ?? 'http://127.0.0.1:8080';

const mantineModules =
  /[\\/]node_modules[\\/](@mantine|@floating-ui|react-remove-scroll|react-remove-scroll-bar|react-style-singleton|use-callback-ref|use-sidecar|react-number-format|react-textarea-autosize|clsx|tslib|get-nonce|detect-node-es|aria-hidden)[\\/]/;

const mantineOverlayModules =
  /[\\/]node_modules[\\/](?:(?:@floating-ui|react-remove-scroll|react-remove-scroll-bar|react-style-singleton|use-callback-ref|use-sidecar|get-nonce|detect-node-es|aria-hidden)[\\/]|@mantine[\\/]core[\\/]esm[\\/]components[\\/](?:Menu\w*|Popover|Modal|ModalBase|ScrollArea|Avatar|Overlay|Portal|FocusTrap|Transition|Combobox|Tooltip|Floating\w*)[\\/])/;

// Vendor groups: each is cached independently of app code and of the others, and the
// route chunks (pages) stay small. Higher priority wins when a module matches several.
const vendorGroups = [
  { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
  // The UI kit in two parts: overlays (menus, popovers, modals, scroll areas and the
  // floating-ui / scroll-lock code behind them) are used by the navbar and dialogs only,
  // so the sign-in page does not load them; the rest is shared by every screen.
  { name: 'mantine', test: (id: string) => mantineModules.test(id) && !mantineOverlayModules.test(id), priority: 21 },
  { name: 'mantine-overlays', test: mantineModules, priority: 20 },
  {
    name: 'data',
    test: /[\\/]node_modules[\\/](react-router|@tanstack|zustand|cookie|set-cookie-parser)[\\/]/,
    priority: 10,
  },
];

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    // Never inline assets as data: URIs; every asset is a hashed file served from 'self',
    // which keeps the Content-Security-Policy free of data: sources.
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: {
      output: {
        codeSplitting: { groups: vendorGroups },
      },
    },
  },
});
