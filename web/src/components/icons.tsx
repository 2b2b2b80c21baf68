import type { ReactNode, SVGProps } from 'react';

/**
 * Small inline line icons (no icon font, no external CSS: nothing for the CSP to allow).
 * Menu items name theirs with `iconCss` (e.g. "icon-home"); unknown names get a neutral dot.
 */
type IconProps = Omit<SVGProps<SVGSVGElement>, 'children'> & { size?: number };

function Svg({ size = 18, children, ...rest }: IconProps & { children: ReactNode }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...rest}
    >
      {children}
    </svg>
  );
}

export const HomeIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M4 11.5 12 5l8 6.5" />
    <path d="M6 10v9h12v-9" />
    <path d="M10 19v-5h4v5" />
  </Svg>
);

export const FolderIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M3.5 7.5a2 2 0 0 1 2-2h4l2 2h7a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-13a2 2 0 0 1-2-2z" />
  </Svg>
);

export const UsersIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="9" cy="8.5" r="3" />
    <path d="M3.5 19a5.5 5.5 0 0 1 11 0" />
    <path d="M16 5.8a3 3 0 0 1 0 5.4" />
    <path d="M17.5 14a5.5 5.5 0 0 1 3 5" />
  </Svg>
);

export const CoinsIcon = (p: IconProps) => (
  <Svg {...p}>
    <ellipse cx="9" cy="7" rx="5.5" ry="2.5" />
    <path d="M3.5 7v4c0 1.4 2.5 2.5 5.5 2.5s5.5-1.1 5.5-2.5V7" />
    <path d="M9.5 16.2c.9.2 1.9.3 3 .3 3 0 5.5-1.1 5.5-2.5" />
    <path d="M14.5 10.2c2.2.3 3.5 1 3.5 1.8v5c0 1.4-2.5 2.5-5.5 2.5S7 18.4 7 17v-1.2" />
  </Svg>
);

export const TruckIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M3 6.5h11v9H3z" />
    <path d="M14 9.5h3.5l3 3v3H14" />
    <circle cx="7" cy="17.5" r="1.8" />
    <circle cx="17" cy="17.5" r="1.8" />
  </Svg>
);

export const SettingsIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="12" cy="12" r="3" />
    <path d="M12 3v2.5M12 18.5V21M3 12h2.5M18.5 12H21M5.6 5.6l1.8 1.8M16.6 16.6l1.8 1.8M5.6 18.4l1.8-1.8M16.6 7.4l1.8-1.8" />
  </Svg>
);

export const LeafIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M5 19c0-8 5-13 15-14-1 10-6 15-14 15" />
    <path d="M5 19c3-4 6-7 10-9" />
  </Svg>
);

export const MessageIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M4 5.5h16v10H9l-5 4z" />
    <path d="M8 9.5h8M8 12.5h5" />
  </Svg>
);

export const ReceiptIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M6 3.5h12v17l-2-1.5-2 1.5-2-1.5-2 1.5-2-1.5-2 1.5z" />
    <path d="M9 8h6M9 11.5h6M9 15h3" />
  </Svg>
);

export const ChartIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M4 20V4" />
    <path d="M4 20h16" />
    <path d="M8 16v-4M12 16V8M16 16v-6" />
  </Svg>
);

export const DotIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="12" cy="12" r="3.2" />
  </Svg>
);

export const ChevronDownIcon = (p: IconProps) => (
  <Svg size={14} {...p}>
    <path d="m6 9 6 6 6-6" />
  </Svg>
);

export const ChevronRightIcon = (p: IconProps) => (
  <Svg size={14} {...p}>
    <path d="m9 6 6 6-6 6" />
  </Svg>
);

export const CheckIcon = (p: IconProps) => (
  <Svg size={16} strokeWidth={2.4} {...p}>
    <path d="m5 12.5 4.5 4.5L19 7.5" />
  </Svg>
);

export const LogoutIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M14 4.5H6.5a2 2 0 0 0-2 2v11a2 2 0 0 0 2 2H14" />
    <path d="M10 12h10M16.5 8.5 20 12l-3.5 3.5" />
  </Svg>
);

export const MenuIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M4 7h16M4 12h16M4 17h16" />
  </Svg>
);

export const AlertIcon = (p: IconProps) => (
  <Svg size={20} {...p}>
    <path d="M12 4.5 21 19.5H3z" />
    <path d="M12 10v4.5M12 17h.01" />
  </Svg>
);

export const InfoIcon = (p: IconProps) => (
  <Svg size={20} {...p}>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M12 11v5M12 8h.01" />
  </Svg>
);

export const CheckCircleIcon = (p: IconProps) => (
  <Svg size={20} {...p}>
    <circle cx="12" cy="12" r="8.5" />
    <path d="m8.5 12.5 2.5 2.5 4.5-5" />
  </Svg>
);

export const SearchIcon = (p: IconProps) => (
  <Svg size={16} {...p}>
    <circle cx="11" cy="11" r="6.5" />
    <path d="m16 16 4.5 4.5" />
  </Svg>
);

/** A pencil: edit this value. */
export const PencilIcon = (p: IconProps) => (
  <Svg size={14} {...p}>
    <path d="M4 20h4L18.5 9.5a2.83 2.83 0 0 0-4-4L4 16v4z" />
    <path d="m13.5 6.5 4 4" />
  </Svg>
);

export const ExternalIcon = (p: IconProps) => (
  <Svg size={13} {...p}>
    <path d="M14 5h5v5M19 5l-8 8" />
    <path d="M17 14v4a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 5 18V8.5A1.5 1.5 0 0 1 6.5 7H10" />
  </Svg>
);

const BY_CLASS: Readonly<Record<string, (p: IconProps) => ReactNode>> = {
  'icon-home': HomeIcon,
  'icon-folder': FolderIcon,
  'icon-users': UsersIcon,
  'icon-coins': CoinsIcon,
  'icon-truck': TruckIcon,
  'icon-settings': SettingsIcon,
  'icon-leaf': LeafIcon,
  'icon-message': MessageIcon,
  'icon-receipt': ReceiptIcon,
  'icon-chart': ChartIcon,
};

/** Whether `iconCss` names a known icon. */
export function hasMenuIcon(iconCss: string | undefined): boolean {
  return !!iconCss && iconCss.split(/\s+/).some((c) => c in BY_CLASS);
}

/** The icon a menu item's `iconCss` names (any of its classes), or the neutral dot. */
export function MenuIconFor({ iconCss, ...rest }: IconProps & { iconCss: string | undefined }) {
  const name = iconCss?.split(/\s+/).find((c) => c in BY_CLASS);
  // The icons are plain functions of their props (no hooks): render the chosen one directly.
  const render = (name && BY_CLASS[name]) || DotIcon;
  return <span className="portico-menu-icon" data-icon={name ?? 'fallback'}>{render(rest)}</span>;
}
