import {
  Anchor,
  AppShell,
  Badge,
  Burger,
  Center,
  Group,
  Loader,
  NavLink,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useDisclosure } from '@mantine/hooks';
import { Suspense } from 'react';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import type { OperationId, Session } from '../../contract';
import { capabilitiesQuery, type Capabilities } from '../api/capabilities';
import { useEngineHealth } from '../api/engine-health';
import { identityQuery } from '../api/identity';
import { useCan } from '../api/permissions';
import { needsSignIn, useSession } from '../api/session';
import { lazyPage } from '../lib/lazy-page';
import { PaletteLauncher } from './PaletteLauncher';
import { ServiceUnreachableNotice } from './ServiceUnreachableNotice';

// Only a signed-in user has them: their menus stay out of everyone's first page load.
const AccountControls = lazyPage(() => import('./AccountControls'));

interface Entry {
  to: string;
  label: string;
  /** Only where the service has it: a link to a page that can only say "none" is noise. */
  needs?: keyof Capabilities;
  /** Only for a role that may use the page: the operation it is for. */
  operation?: OperationId;
}

const LINKS: readonly Entry[] = [
  { to: '/', label: 'Overview' },
  { to: '/submit', label: 'Submit a job', operation: 'submitJob' },
  { to: '/jobs', label: 'Jobs' },
  // Retrying them is its point: for a role that may submit.
  { to: '/failures', label: 'Failures', needs: 'bulk', operation: 'submitJob' },
  { to: '/schedules', label: 'Schedules', needs: 'schedules' },
  { to: '/hosts', label: 'Hosts', needs: 'hosts' },
  {
    to: '/webhooks',
    label: 'Webhooks',
    needs: 'webhooks',
    operation: 'listWebhooks',
  },
  { to: '/keys', label: 'API keys', needs: 'keys', operation: 'listKeys' },
  { to: '/members', label: 'Members', needs: 'members', operation: 'listMembers' },
  // The trail is its admins'.
  { to: '/audit', label: 'Audit', needs: 'audit', operation: 'listAuditEvents' },
  { to: '/settings', label: 'Settings' },
];

function NavEntry({ entry, onClick }: { entry: Entry; onClick: () => void }) {
  const { pathname } = useLocation();
  return (
    <NavLink
      component={Link}
      to={entry.to}
      label={entry.label}
      active={entry.to === '/' ? pathname === '/' : pathname.startsWith(entry.to)}
      onClick={onClick}
    />
  );
}

/** An entry shown only once the role is known to allow it. */
function RoleNavEntry({
  entry,
  operation,
  onClick,
}: {
  entry: Entry;
  operation: OperationId;
  onClick: () => void;
}) {
  return useCan(operation).allowed ? <NavEntry entry={entry} onClick={onClick} /> : null;
}

/** Who acts: a local administrator, a signed-in user (with their projects), or a key. */
function Account({ session }: { session: Session | null }) {
  if (session?.mode === 'local')
    return (
      <Badge variant="light" color="gray" title="The console on this machine acts as an admin">
        Local administrator
      </Badge>
    );
  if (!session?.user) return null;
  return (
    <Suspense fallback={null}>
      <AccountControls session={session} />
    </Suspense>
  );
}

// Only while the engine is away: its words stay out of everyone's first page load.
const EngineHealthBadge = lazyPage(() => import('./EngineHealthBadge'));

function EngineAway({ enabled }: { enabled: boolean }) {
  const status = useEngineHealth(enabled);
  if (!status || status.health.reachable) return null;
  return (
    <Suspense fallback={null}>
      <EngineHealthBadge health={status.health} engine={status.engine} />
    </Suspense>
  );
}

function Header({
  session,
  onBurger,
  opened,
}: {
  session: Session | null;
  opened: boolean;
  onBurger: () => void;
}) {
  const capabilities = useQuery(capabilitiesQuery).data;
  const identity = useQuery({ ...identityQuery, enabled: capabilities?.identity === true }).data;
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group wrap="nowrap">
        <Burger
          opened={opened}
          onClick={onBurger}
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
          <Text size="sm" c="dimmed" data-testid="acting-for" visibleFrom="xs">
            project {identity.project} · {identity.role} · Jobdeck {identity.service.version}
          </Text>
        )}
        <EngineAway enabled={capabilities?.identity === true} />
        {/* A capacity test must never be taken for real work: nothing runs on this engine. */}
        {identity?.service.engine === 'simulated' && (
          <Badge color="orange" variant="light" title="No container runs: a capacity test">
            simulated engine
          </Badge>
        )}
      </Group>
      <Group gap="xs" wrap="nowrap">
        <PaletteLauncher />
        <Account session={session} />
      </Group>
    </Group>
  );
}

export function Shell() {
  const [opened, { toggle, close }] = useDisclosure();
  const location = useLocation();
  const session = useSession();
  // Pages wait for the session: without its project, their reads would be refused.
  // A service without sign-in, or one that cannot be reached: the pages say what they can.
  // A refresh that failed (the service away) keeps the session last read: the shell stays whole.
  const known = session.data ?? null;
  if (session.isPending)
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  if (needsSignIn(known)) {
    const returnTo = `${location.pathname}${location.search}`;
    return <Navigate to={`/sign-in?return_to=${encodeURIComponent(returnTo)}`} replace />;
  }
  const memberOfNothing = known?.user && known.projects.length === 0;
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Header session={known} opened={opened} onBurger={toggle} />
      </AppShell.Header>
      <AppShell.Navbar p="sm" component="nav" aria-label="Main">
        <NavEntries onClick={close} />
      </AppShell.Navbar>
      {/* Where index.html's skip link lands: focusable, so the next Tab starts inside it. */}
      <AppShell.Main id="main" tabIndex={-1}>
        {memberOfNothing ? (
          // Plain text: an Alert here would put its code in everyone's first page load.
          <Text role="alert">
            You are not a member of any project yet: ask an admin of a project to add{' '}
            {known?.user?.identity} on its Members page.
          </Text>
        ) : (
          <>
            <ServiceUnreachableNotice />
            <Suspense fallback={<Loader aria-label="Loading page" />}>
              <Outlet />
            </Suspense>
          </>
        )}
      </AppShell.Main>
    </AppShell>
  );
}

function NavEntries({ onClick }: { onClick: () => void }) {
  const capabilities = useQuery(capabilitiesQuery).data;
  return LINKS.filter((entry) => !entry.needs || capabilities?.[entry.needs]).map((entry) =>
    entry.operation ? (
      <RoleNavEntry key={entry.to} entry={entry} operation={entry.operation} onClick={onClick} />
    ) : (
      <NavEntry key={entry.to} entry={entry} onClick={onClick} />
    ),
  );
}
