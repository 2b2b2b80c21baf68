import type { RouteObject } from 'react-router';

let table: RouteObject[] = [];

/**
 * The app's route table, for a page that names other pages by their routes (the feedback
 * form's "back to Projects"). The router publishes it when it is made (createAppRouter);
 * a page reads it here rather than importing the table, which is what loads the page.
 * Empty until then: a page then names a path by the path.
 */
export function routeTable(): RouteObject[] {
  return table;
}

export function publishRouteTable(routes: RouteObject[]): void {
  table = routes;
}
