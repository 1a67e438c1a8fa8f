import { describeEngineCases } from '../support/engine-cases';
import { SWARM, swarmServiceForFile } from './swarm';

// The recovery cases every engine that outlives the service runs (test/support/engine-cases.ts):
// the service killed with kill -9 while jobs run on the swarm.
describeEngineCases(SWARM, swarmServiceForFile(), ['recovery']);
