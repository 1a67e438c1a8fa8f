import { Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { Shell } from './Shell';

// Each page is its own chunk: the first load carries only the shell.
const OverviewPage = lazy(() => import('../features/overview/OverviewPage'));
const SubmitPage = lazy(() => import('../features/submit/SubmitPage'));
const JobPage = lazy(() => import('../features/job/JobPage'));
const JobsPage = lazy(() => import('../features/jobs/JobsPage'));
const SchedulesPage = lazy(() => import('../features/schedules/SchedulesPage'));
const WebhooksPage = lazy(() => import('../features/webhooks/WebhooksPage'));
const AuditPage = lazy(() => import('../features/audit/AuditPage'));
const SettingsPage = lazy(() => import('../features/settings/SettingsPage'));
const KeysPage = lazy(() => import('../features/keys/KeysPage'));
const MembersPage = lazy(() => import('../features/members/MembersPage'));
const SignInPage = lazy(() => import('../features/sign-in/SignInPage'));

export const router = createBrowserRouter([
  // Outside the shell: no navigation before anyone has signed in.
  {
    path: '/sign-in',
    element: (
      <Suspense fallback={<Loader aria-label="Loading page" />}>
        <SignInPage />
      </Suspense>
    ),
  },
  {
    path: '/',
    element: <Shell />,
    children: [
      { index: true, element: <OverviewPage /> },
      { path: 'submit', element: <SubmitPage /> },
      { path: 'jobs', element: <JobsPage /> },
      { path: 'jobs/:id', element: <JobPage /> },
      { path: 'schedules', element: <SchedulesPage /> },
      { path: 'webhooks', element: <WebhooksPage /> },
      { path: 'audit', element: <AuditPage /> },
      { path: 'keys', element: <KeysPage /> },
      { path: 'members', element: <MembersPage /> },
      { path: 'settings', element: <SettingsPage /> },
      { path: '*', element: <Navigate to="/jobs" replace /> },
    ],
  },
]);
