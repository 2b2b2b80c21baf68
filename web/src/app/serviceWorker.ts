/**
 * Registers the service worker the production build writes (/sw.js: the app's shell
 * offline, serviceworker/sw.js), once the page has loaded so it never competes with the
 * first render. Not in development (the dev server has no /sw.js), nor where the browser
 * has no service workers; a failed registration leaves the app as it is, online only.
 */
export function registerServiceWorker(env: { prod: boolean } = { prod: import.meta.env.PROD }): void {
  if (!env.prod || !('serviceWorker' in navigator)) return;
  const register = () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
