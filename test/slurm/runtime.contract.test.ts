import { SLURM_ROW } from '../engine/engines';
import { describeRuntimeContract } from '../engine/runtime-contract';

// The engine contract suite on the Slurm engine: the same promises the fake and local Docker keep.
describeRuntimeContract(SLURM_ROW);
