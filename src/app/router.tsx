import { Loader } from '@mantine/core';
import { Suspense } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { lazyPage } from '../lib/lazy-page';
import { RouteError } from './RouteError';
import { Shell } from './Shell';

// Each page is its own chunk: the first load carries only the shell.
const OverviewPage = lazyPage(() => import('../features/overview/OverviewPage'));
const SubmitPage = lazyPage(() => import('../features/submit/SubmitPage'));
const JobPage = lazyPage(() => import('../features/job/JobPage'));
const JobsPage = lazyPage(() => import('../features/jobs/JobsPage'));
const SchedulesPage = lazyPage(() => import('../features/schedules/SchedulesPage'));
const WebhooksPage = lazyPage(() => import('../features/webhooks/WebhooksPage'));
const AuditPage = lazyPage(() => import('../features/audit/AuditPage'));
const FailuresPage = lazyPage(() => import('../features/jobs/FailuresPage'));
const HostsPage = lazyPage(() => import('../features/hosts/HostsPage'));
const SettingsPage = lazyPage(() => import('../features/settings/SettingsPage'));
const KeysPage = lazyPage(() => import('../features/keys/KeysPage'));
const MembersPage = lazyPage(() => import('../features/members/MembersPage'));
const SignInPage = lazyPage(() => import('../features/sign-in/SignInPage'));

export const router = createBrowserRouter([
  // Outside the shell: no navigation before anyone has signed in.
  {
    path: '/sign-in',
    errorElement: <RouteError />,
    element: (
      <Suspense fallback={<Loader aria-label="Loading page" />}>
        <SignInPage />
      </Suspense>
    ),
  },
  {
    path: '/',
    element: <Shell />,
    errorElement: <RouteError />,
    children: [
      {
        // Pathless: a page that fails shows its error inside the shell, navigation kept.
        errorElement: <RouteError />,
        children: [
          { index: true, element: <OverviewPage /> },
          { path: 'submit', element: <SubmitPage /> },
          { path: 'jobs', element: <JobsPage /> },
          { path: 'jobs/:id', element: <JobPage /> },
          { path: 'failures', element: <FailuresPage /> },
          { path: 'schedules', element: <SchedulesPage /> },
          { path: 'webhooks', element: <WebhooksPage /> },
          { path: 'audit', element: <AuditPage /> },
          { path: 'hosts', element: <HostsPage /> },
          { path: 'keys', element: <KeysPage /> },
          { path: 'members', element: <MembersPage /> },
          { path: 'settings', element: <SettingsPage /> },
          { path: '*', element: <Navigate to="/jobs" replace /> },
        ],
      },
    ],
  },
]);
