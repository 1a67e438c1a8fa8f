import type { Job } from './model';
import type { SecretBox } from './ports';

/** One form a sensitive value can take in what the engine says, as text and as bytes. */
interface SecretForm {
  /** The variable's name, for the marker that replaces it. */
  name: string;
  text: string;
  bytes: Buffer;
}

/**
 * A job's sensitive values, opened: handed to the engine, and taken back out of everything the
 * engine says (error messages, output) before it is stored, logged or shown.
 */
export class JobSecrets {
  /** Every form of every secret, longest first: a longer form is replaced before a part of it. */
  readonly forms: readonly SecretForm[];

  constructor(
    private readonly job: Pick<Job, 'env'>,
    private readonly box: SecretBox,
  ) {
    const forms: SecretForm[] = [];
    for (const variable of job.env) {
      if (!('sealed' in variable)) continue;
      const value = box.open(variable.sealed);
      // An empty value cannot be found in text, and hides nothing.
      if (value === '') continue;
      // Also as the engine may quote it: JSON-escaped, or Go-quoted (an env entry with a control
      // character comes back escaped in the engine's errors).
      for (const text of new Set([value, jsonEscaped(value), goQuoted(value)])) {
        forms.push({ name: variable.name, text, bytes: Buffer.from(text) });
      }
    }
    this.forms = forms.sort((a, b) => b.bytes.length - a.bytes.length);
  }

  /** NAME=value for the engine: the only place sealed values are opened for use. */
  engineEnv(): string[] {
    return this.job.env.map(
      (v) => `${v.name}=${'sealed' in v ? this.box.open(v.sealed) : v.value}`,
    );
  }

  /**
   * The longest form in bytes (0 without secrets): a cut of the output can hide at most this
   * much less one byte of a secret that began before it.
   */
  get margin(): number {
    return this.forms[0]?.bytes.length ?? 0;
  }

  /** Replaces every secret, in every form, in an engine message. */
  scrub(text: string): string {
    let scrubbed = text;
    for (const form of this.forms)
      scrubbed = scrubbed.split(form.text).join(redactedMarker(form.name));
    return scrubbed;
  }
}

export const redactedMarker = (name: string) => `[${name} redacted]`;

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
