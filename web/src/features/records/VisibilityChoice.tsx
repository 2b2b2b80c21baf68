import { Radio, Stack } from '@mantine/core';
import { SUCCESS_ALERT_CLASS, useAppStore } from '../../lib/appState';
import { useSessionStore } from '../../lib/session/store';
import type { Role } from '../../lib/session/types';
import type { ListConfig, Visibility } from './types';

/** The permission that lets a role share lists and reports with everyone in it (the server's records.PermEditLists). */
export const SHARE_PERMISSION = 'lists.edit';

export interface VisibilityChoiceProps {
  /** What is shared: "list", "report". */
  noun: string;
  value: Visibility;
  /** With value "role": the role shared with; none for the role worked in. */
  roleId?: number;
  onChange: (value: Visibility, roleId?: number) => void;
  error?: string;
}

const canShare = (role: Pick<Role, 'permissions'>) => role.permissions.includes(SHARE_PERMISSION);

/**
 * Who sees a saved list or report: only its owner, or everyone working in a role (the
 * server's `private` and `role` visibility): the one worked in, or another the user holds.
 * Sharing with a role needs that role's `lists.edit` permission (the server refuses it
 * otherwise): the role worked in without it shows its choice disabled, saying why; other
 * roles without it are not offered.
 */
export function VisibilityChoice({ noun, value, roleId, onChange, error }: VisibilityChoiceProps) {
  const current = useSessionStore((s) => s.currentRole);
  const held = useSessionStore((s) => s.user?.roles);
  const others = (held ?? []).filter((r) => r.id !== current?.id && canShare(r));
  const mayShare = !!current && canShare(current);
  const chosen = value === 'role' ? `role:${roleId ?? current?.id ?? ''}` : 'private';
  return (
    <Radio.Group
      label={`Who sees this ${noun}`}
      value={chosen}
      onChange={(v) => {
        if (!v.startsWith('role:')) return onChange('private');
        const id = Number(v.slice('role:'.length));
        onChange('role', id === current?.id ? undefined : id);
      }}
      error={error}
    >
      <Stack gap={6} mt={6}>
        <Radio value="private" label="Only me" />
        <Radio
          value={`role:${current?.id ?? ''}`}
          label={`Everyone working as ${current?.name ?? 'my current role'}`}
          disabled={!mayShare}
          description={mayShare ? undefined : `Your role may not share a ${noun} with everyone in it.`}
        />
        {others.map((role) => (
          <Radio
            key={role.id}
            value={`role:${role.id}`}
            label={`Everyone working as ${role.name}`}
            description={`It shows when you work as ${role.name}, not as ${current?.name ?? 'now'}.`}
          />
        ))}
      </Stack>
    </Radio.Group>
  );
}

/**
 * After a save: when the list or report went to another role than the one worked in (so
 * this role no longer sees it), says where it went, in a success alert, and returns true;
 * the caller then opens somewhere this role sees. Else returns false and says nothing.
 */
export function useSharedElsewhere(): (saved: Pick<ListConfig, 'name' | 'visibility' | 'roleId'>, noun: string) => boolean {
  const current = useSessionStore((s) => s.currentRole);
  const held = useSessionStore((s) => s.user?.roles);
  const raiseAlert = useAppStore((s) => s.raiseAlert);
  return (saved, noun) => {
    if (saved.visibility !== 'role' || saved.roleId === undefined || saved.roleId === current?.id) return false;
    const name = held?.find((r) => r.id === saved.roleId)?.name ?? 'the role you chose';
    raiseAlert({
      title: `${noun[0]!.toUpperCase()}${noun.slice(1)} saved`,
      message: `“${saved.name}” is shared with everyone working as ${name}: it shows when you work as ${name}.`,
      type: SUCCESS_ALERT_CLASS,
    });
    return true;
  };
}
