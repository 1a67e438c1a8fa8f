import { OUT_OF_MEMORY_FACTOR_DEFAULT, type RetryStrategy } from '../../contract';

const MIB = 2 ** 20;

/**
 * What an attempt killed out of memory means for the next one, under the strategy's
 * `out_of_memory` rule: it runs with more memory, or, having run at the ceiling already, there
 * is no next one (the same memory would end the same way).
 */
export type MemoryRaise = { to: number } | { atCeiling: number };

/**
 * The next attempt's memory: the memory this one ran with × the rule's factor, rounded up to a
 * whole MiB (a limit a person reads as 32 MiB, not 33554431 bytes), at most its ceiling.
 * Undefined when the strategy has no such rule.
 */
export function memoryRaise(
  strategy: Pick<RetryStrategy, 'out_of_memory'>,
  ranWithBytes: number,
): MemoryRaise | undefined {
  const rule = strategy.out_of_memory;
  if (!rule) return undefined;
  const ceiling = rule.max_memory_bytes;
  if (ranWithBytes >= ceiling) return { atCeiling: ceiling };
  const raised =
    Math.ceil((ranWithBytes * (rule.factor ?? OUT_OF_MEMORY_FACTOR_DEFAULT)) / MIB) * MIB;
  return { to: Math.min(ceiling, raised) };
}
