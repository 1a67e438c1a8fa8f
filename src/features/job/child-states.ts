import { useSearchParams } from 'react-router';
import type { JobState } from '../../../contract';
import { statesFromParams } from '../../lib/state-params';

/** The URL parameter of the array's filter: `/jobs/<id>?children=failed&children=error`. */
const CHILD_STATES_PARAM = 'children';

/**
 * The states an array's children are shown in (none: all of them), kept in the URL: a link
 * shares the view, a reload keeps it, and Back from a child's page comes back to it.
 */
export function useChildStates() {
  const [search, setSearch] = useSearchParams();
  const states = statesFromParams(search.getAll(CHILD_STATES_PARAM));
  const setStates = (next: readonly JobState[]) => {
    const params = new URLSearchParams(search);
    params.delete(CHILD_STATES_PARAM);
    for (const state of next) params.append(CHILD_STATES_PARAM, state);
    setSearch(params);
  };
  return [states, setStates] as const;
}
