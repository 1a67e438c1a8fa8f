import { lazy } from 'react';
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

export const router = createBrowserRouter([
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
      { path: 'settings', element: <SettingsPage /> },
      { path: '*', element: <Navigate to="/jobs" replace /> },
    ],
  },
]);
