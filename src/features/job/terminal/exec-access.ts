import { useQuery } from '@tanstack/react-query';
import { useCapabilities } from '../../../api/capabilities';
import { identityQuery } from '../../../api/identity';
import { useCan, type Permission } from '../../../api/permissions';
import { readApiKey } from '../../../lib/api-key';

/**
 * Whether a shell can be opened in this project's running jobs, and if not why, from whoami:
 * null when the service says nothing of exec (an older one, or without extensions), so that
 * nothing is offered.
 */
export function useExecAccess(): Permission | null {
  const capabilities = useCapabilities();
  const identity = useQuery({ ...identityQuery, enabled: capabilities.data?.identity === true });
  const role = useCan('execInJob');
  const exec = identity.data?.exec;
  if (!identity.data || !exec) return null;
  const { project, service } = identity.data;
  if (!exec.enabled)
    return refused(
      `A shell is off in project "${project}": its configuration enables it with projects.${project}.exec: true.`,
    );
  if (!exec.supported)
    return refused(
      `The ${service.engine} engine cannot run a command in a job; only the local docker engine can.`,
    );
  // A browser sends no header on a WebSocket: the console's server would add its own key instead.
  if (readApiKey())
    return refused(
      'A key typed in Settings cannot open a shell (a browser cannot send it on a WebSocket): sign in, or use jobdeck exec.',
    );
  return role;
}

const refused = (reason: string): Permission => ({ allowed: false, reason });
