import { z } from 'zod';
import { configSchema } from './schema';

interface JsonSchema {
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
}

/** Every key name the configuration knows, at any depth (built on the first mistyped key only). */
function knownKeyNames(): Set<string> {
  const names = new Set<string>();
  const walk = (schema: JsonSchema) => {
    for (const [name, child] of Object.entries(schema.properties ?? {})) {
      names.add(name);
      walk(child);
    }
    if (typeof schema.additionalProperties === 'object') walk(schema.additionalProperties);
    if (schema.items) walk(schema.items);
    for (const variant of [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) walk(variant);
  };
  walk(z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
  return names;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      row[j] = Math.min(
        previous[j]! + 1,
        row[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * The known key a mistyped one most likely meant: within two edits (one for short keys). A key
 * known elsewhere (a swarm's `constraints` under a docker engine) is no typo: nothing to suggest.
 */
export function closestKeyName(typed: string): string | undefined {
  const names = knownKeyNames();
  if (names.has(typed)) return undefined;
  const allowed = typed.length <= 4 ? 1 : 2;
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(typed.toLowerCase(), name);
    if (distance <= allowed && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
