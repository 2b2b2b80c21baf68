import { createBrowserRouter } from 'react-router';
import { publishRouteTable } from './routeTable';
import { routes } from './routes';

export function createAppRouter() {
  publishRouteTable(routes);
  return createBrowserRouter(routes);
}
