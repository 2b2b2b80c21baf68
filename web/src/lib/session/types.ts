/** A role the user holds (SPEC §3), as the server sends it. */
export interface Role {
  /** Stable key of the role, e.g. "role-administrator". */
  _id: string;
  /** Numeric id; sent as the X-Role-Id header on every call. */
  id: number;
  name: string;
  type: string;
  /** Id of the layout configuration that builds this role's menu; "" when the role has none. */
  layout: string;
  /** Permission names, treated as flags. */
  permissions: string[];
}

/** A role with the derived current flag (SPEC §3). */
export interface RoleOption extends Role {
  current: boolean;
}

/** The signed-in portal user (SPEC §3). */
export interface User {
  id: number;
  email: string;
  fullName: string;
  roles: Role[];
}

/** A node of the menu tree built from a layout configuration (SPEC §3). */
export interface MenuItem {
  text: string;
  iconCss: string;
  href: string;
  /** Children; [] for a leaf (the server may send null). */
  items: MenuItem[];
  separator: boolean;
}

/**
 * How the user signed in. SPEC §4 login step 5 sets it from the current role's type
 * (e.g. "admin", "staff", "finance"), so it is a free-form string.
 */
export type LoginType = string;

/** What `GET /api/v1/auth/login` answers in `data`. */
export interface LoginAnswer {
  token: string;
  /** RFC 3339, server clock. */
  tokenExpiresAt: string;
  refreshToken: string;
  user: User;
  currentRole: Role;
}

/** What `POST /api/v1/auth/refresh` answers in `data`. */
export interface RefreshAnswer {
  token: string;
  tokenExpiresAt: string;
  refreshToken: string;
}
