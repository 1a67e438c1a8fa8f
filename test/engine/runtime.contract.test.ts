import { ENGINES } from './engines';
import { describeRuntimeContract } from './runtime-contract';

// The fake, the simulated engine and the local Docker Engine; the swarm's row runs with the swarm (test/swarm).
for (const row of ENGINES) describeRuntimeContract(row);
