import {
  Anchor,
  AppShell,
  Badge,
  Burger,
  Group,
  Loader,
  NavLink,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useDisclosure } from '@mantine/hooks';
import { Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { useCapabilities } from '../api/capabilities';
import { identityQuery } from '../api/identity';

const LINKS = [
  { to: '/', label: 'Overview' },
  { to: '/submit', label: 'Submit a job' },
  { to: '/jobs', label: 'Jobs' },
  // Only where the service has them: a link to a page that can only say "none" is noise.
  { to: '/schedules', label: 'Schedules', needs: 'schedules' },
  { to: '/webhooks', label: 'Webhooks', needs: 'webhooks' },
  // And only for whom it may show anything: the trail is its admins'.
  { to: '/audit', label: 'Audit', needs: 'audit', role: 'admin' },
  { to: '/settings', label: 'Settings' },
] as const;

export function Shell() {
  const [opened, { toggle, close }] = useDisclosure();
  const { pathname } = useLocation();
  const capabilities = useCapabilities().data;
  const identity = useQuery({ ...identityQuery, enabled: capabilities?.identity === true }).data;
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md">
          <Burger
            opened={opened}
            onClick={toggle}
            hiddenFrom="sm"
            size="sm"
            aria-label="Toggle navigation"
          />
          <Title order={3}>
            <Anchor component={Link} to="/" inherit underline="never" c="inherit">
              Jobdeck
            </Anchor>
          </Title>
          {identity && (
            <Text size="sm" c="dimmed" data-testid="acting-for">
              project {identity.project} · Jobdeck {identity.service.version}
            </Text>
          )}
          {/* A capacity test must never be taken for real work: nothing runs on this engine. */}
          {identity?.service.engine === 'simulated' && (
            <Badge color="orange" variant="light" title="No container runs: a capacity test">
              simulated engine
            </Badge>
          )}
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" component="nav" aria-label="Main">
        {LINKS.filter(
          (link) =>
            (!('needs' in link) || capabilities?.[link.needs]) &&
            (!('role' in link) || identity?.role === link.role),
        ).map((link) => (
          <NavLink
            key={link.to}
            component={Link}
            to={link.to}
            label={link.label}
            active={link.to === '/' ? pathname === '/' : pathname.startsWith(link.to)}
            onClick={close}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Suspense fallback={<Loader aria-label="Loading page" />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
