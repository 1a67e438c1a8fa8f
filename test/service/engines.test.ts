import { describe } from 'vitest';
import { describeEngineCases } from '../support/engine-cases';
import { DOCKER, SIMULATED } from './engines';

// The lifecycle and cancel cases on every engine the service runs on here; the swarm runs the
// same ones (test/swarm/lifecycle.test.ts), and recovery.test.ts the recovery cases.
describe.each([DOCKER, SIMULATED])('the service on $name', (row) => {
  describeEngineCases(row, row.serviceForCases(), ['lifecycle', 'cancel']);
});
