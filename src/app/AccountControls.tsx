import { Button, Group, Menu, Select } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { Session } from '../../contract';
import { switchProject, useSignOut } from '../api/session';
import { activeProject, useChosenProject } from '../api/session-state';

/** Switches the project the console works in, for a user with several. */
function ProjectSwitcher({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  // Read again after a switch: the value shown is the one the requests send.
  useChosenProject();
  const projects = session.projects.map((p) => p.project);
  return (
    <Select
      aria-label="Project"
      size="xs"
      w={180}
      data={session.projects.map((p) => ({ value: p.project, label: `${p.project} (${p.role})` }))}
      value={activeProject(projects)}
      onChange={(project) => {
        if (project) void switchProject(queryClient, project);
      }}
      allowDeselect={false}
      searchable={session.projects.length > 8}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** The signed-in user, with Sign out and Sign out everywhere. */
function UserMenu({ session }: { session: Session }) {
  const signOut = useSignOut();
  const user = session.user!;
  const sign = (everywhere: boolean) =>
    signOut.mutate(everywhere, {
      onError: (error) =>
        notifications.show({ color: 'red', title: 'Not signed out', message: error.message }),
    });
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="subtle" size="compact-sm" loading={signOut.isPending}>
          {user.name ?? user.identity}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user.identity}</Menu.Label>
        <Menu.Item onClick={() => sign(false)}>Sign out</Menu.Item>
        <Menu.Item onClick={() => sign(true)}>Sign out everywhere</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** The header's right side for a signed-in user. */
export default function AccountControls({ session }: { session: Session }) {
  return (
    <Group gap="xs" wrap="nowrap">
      {session.projects.length > 1 && <ProjectSwitcher session={session} />}
      <UserMenu session={session} />
    </Group>
  );
}
