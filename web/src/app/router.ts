import { createBrowserRouter } from 'react-router';
import { publishRouteTable } from '../lib/routeTable';
import { routes } from './routes';

export function createAppRouter() {
  publishRouteTable(routes);
  return createBrowserRouter(routes);
}
