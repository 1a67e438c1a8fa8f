import { removeRunContainers } from '../test/support/service';

/** The e2e service's data directory is wiped at each start, so its containers are removed here. */
export default function teardown(): void {
  removeRunContainers('e2e');
}
