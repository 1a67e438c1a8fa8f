import { SWARM_ROW } from '../engine/engines';
import { describeRuntimeContract } from '../engine/runtime-contract';

// The engine contract suite's third row: the same promises the fake and local Docker keep.
describeRuntimeContract(SWARM_ROW);
