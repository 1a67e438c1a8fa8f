import type { Job } from './model';
import type { SecretBox } from './ports';

interface Secret {
  name: string;
  value: string;
}

/**
 * A job's sensitive values, opened: handed to the engine, and taken back out of everything the
 * engine says (error messages, output) before it is stored, logged or shown.
 */
export class JobSecrets {
  private readonly secrets: Secret[];

  constructor(
    private readonly job: Pick<Job, 'env'>,
    private readonly box: SecretBox,
  ) {
    this.secrets = [];
    for (const variable of job.env) {
      if (!('sealed' in variable)) continue;
      const value = box.open(variable.sealed);
      // An empty value cannot be found in text, and hides nothing.
      if (value !== '') this.secrets.push({ name: variable.name, value });
    }
  }

  /** NAME=value for the engine: the only place sealed values are opened for use. */
  engineEnv(): string[] {
    return this.job.env.map(
      (v) => `${v.name}=${'sealed' in v ? this.box.open(v.sealed) : v.value}`,
    );
  }

  /** Bytes to read beyond a tail, so that a secret cut by the tail's edge can be dropped whole. */
  get margin(): number {
    return Math.max(0, ...this.secrets.map((s) => Buffer.byteLength(s.value)));
  }

  /**
   * Replaces every secret in an engine message, also as the engine may quote it (JSON-escaped or
   * Go-quoted: an env entry with a control character comes back escaped).
   */
  scrub(text: string): string {
    let scrubbed = text;
    for (const secret of this.secrets) {
      for (const form of new Set([
        secret.value,
        jsonEscaped(secret.value),
        goQuoted(secret.value),
      ])) {
        scrubbed = scrubbed.split(form).join(`[${secret.name} redacted]`);
      }
    }
    return scrubbed;
  }

  /**
   * The last `maxBytes` of output with every secret replaced. Redaction comes first: when `raw`
   * is itself a tail, its first `margin` bytes may hold the end of a secret that began before it,
   * so they are dropped (and any secret that straddles that edge with them).
   */
  redactTail(
    raw: Buffer,
    rawTruncated: boolean,
    maxBytes: number,
  ): { text: string; truncated: boolean } {
    let cut = rawTruncated ? Math.min(this.margin, raw.length) : 0;
    // Dropping one straddling secret can move the edge into another one: repeat until it holds.
    for (let previous = -1; previous !== cut;) {
      previous = cut;
      for (const secret of this.secrets) {
        const needle = Buffer.from(secret.value);
        for (
          let at = raw.indexOf(needle);
          at !== -1 && at < cut;
          at = raw.indexOf(needle, at + 1)
        ) {
          cut = Math.max(cut, at + needle.length);
        }
      }
    }
    const redacted = Buffer.from(this.scrub(raw.subarray(cut).toString('utf8')));
    const kept =
      redacted.length > maxBytes ? redacted.subarray(redacted.length - maxBytes) : redacted;
    return { text: kept.toString('utf8'), truncated: rawTruncated || cut > 0 || kept !== redacted };
  }
}

function jsonEscaped(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

const GO_ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

/** Go's %q, which the Docker Engine uses to quote values in its errors. */
function goQuoted(value: string): string {
  return value.replace(
    // eslint-disable-next-line no-control-regex
    /[\x00-\x1f\x7f"\\]/g,
    (c) => GO_ESCAPES[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}
