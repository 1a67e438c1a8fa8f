import { describeSpecCases } from '../support/spec-cases';
import { startSlurmService } from './slurm';

// The spec's three operations and their exact answers, the cases the service tier runs on the
// local Docker Engine (test/service/spec.test.ts), on the Slurm cluster.
describeSpecCases(startSlurmService);
