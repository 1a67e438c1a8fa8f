import { startService } from '../support/service';
import { describeSpecCases } from '../support/spec-cases';

// The spec's three operations and their exact answers on the local Docker Engine (the Slurm
// tier runs the same cases on its cluster: test/slurm/spec.test.ts).
describeSpecCases(startService);
