/** A role the user holds (SPEC §3). `current` is derived on the client. */
export interface Role {
  _id: string;
  id: string;
  name: string;
  type: string;
  /** Id of the layout configuration that builds this role's menu. */
  layout: string | null;
  /** Permission names, treated as flags. */
  permissions: string[];
  current?: boolean;
}

/** The signed-in portal user (SPEC §3). */
export interface User {
  fullName: string;
  roles: Role[];
  currentRole?: Role | null;
}

/** How the user signed in: work-account single sign-on or email and password. */
export type LoginType = 'sso' | 'password';
