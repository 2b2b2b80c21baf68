/** The menu feature's public entry: what other features may use of it. */
export { CategoryMenu } from './CategoryMenu';
export { isExternalHref, resolveHref } from './actions';
export type { HrefTarget } from './actions';
export { useMenuItems } from './menu';
export { filterByWords, goToOptions } from './menuEntries';
export type { GoToOption } from './menuEntries';
