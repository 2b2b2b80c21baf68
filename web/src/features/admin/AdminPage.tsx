/**
 * The Administration area (access.admin) as one lazy module: /admin/users, /admin/roles
 * and /admin/menus share their code (the access file's model and its save), and one
 * chunk keeps the bundler's grouping of the UI kit as it was for the sign-in page.
 */
import { useLocation } from 'react-router';
import { paths } from '../../lib/paths';
import { RecordErrorBoundary } from '../records';
import AdminMenusPage from './AdminMenusPage';
import AdminRolesPage from './AdminRolesPage';
import AdminUsersPage from './AdminUsersPage';

export const ErrorBoundary = RecordErrorBoundary;

export default function AdminPage() {
  const { pathname } = useLocation();
  if (pathname.startsWith(paths.adminRoles)) return <AdminRolesPage />;
  if (pathname.startsWith(paths.adminMenus)) return <AdminMenusPage />;
  return <AdminUsersPage />;
}
