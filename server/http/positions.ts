import { createCipheriv, createDecipheriv, createHmac } from 'node:crypto';
import { POSITION_TOKEN } from '../../contract';

/** A sorted cursor's key block, when the last job had no value to sort by. */
const NO_KEY = -(2n ** 63n);
/** One block as a token: 16 bytes in base64url, unpadded. */
const BLOCK_CHARS = 22;
const SORTED_TOKEN = /^[A-Za-z0-9_-]{44}$/;

/**
 * Event ids and list cursors are positions in the store's one change sequence, shared by every
 * project: sent as numbers, the gaps between a project's own ids would count every other
 * project's activity. Each position goes out as one AES block holding the number and a tag of the
 * project, encrypted with the store's position key: opaque, stable across restarts and instances
 * (the key is in the store), and refused by any other project.
 */
export class PositionCodec {
  private readonly tags = new Map<string, Buffer>();

  constructor(private readonly key: Buffer) {}

  encode(project: string, position: number): string {
    const block = Buffer.alloc(16);
    block.writeBigUInt64BE(BigInt(position));
    this.tagOf(project).copy(block, 8);
    // One block, no padding: ECB on a single block is the block cipher itself, a permutation.
    const cipher = createCipheriv('aes-256-ecb', this.key, null).setAutoPadding(false);
    return Buffer.concat([cipher.update(block), cipher.final()]).toString('base64url');
  }

  /** The position a token of this project stands for; null when it is not one (tampered, or another project's). */
  decode(project: string, token: string): number | null {
    if (!POSITION_TOKEN.test(token)) return null;
    const decipher = createDecipheriv('aes-256-ecb', this.key, null).setAutoPadding(false);
    const block = Buffer.concat([
      decipher.update(Buffer.from(token, 'base64url')),
      decipher.final(),
    ]);
    if (!block.subarray(8).equals(this.tagOf(project))) return null;
    const position = block.readBigUInt64BE();
    return position <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(position) : null;
  }

  /**
   * A sorted list's cursor: a block of the last job's sort key, tagged with the project and the
   * sort (a cursor of another sort, or an unsorted list's, is refused), then its position.
   */
  encodeSorted(project: string, sort: string, key: number | null, position: number): string {
    const block = Buffer.alloc(16);
    block.writeBigInt64BE(key === null ? NO_KEY : BigInt(key));
    this.tagOf(`${project}\nsort:${sort}`).copy(block, 8);
    const cipher = createCipheriv('aes-256-ecb', this.key, null).setAutoPadding(false);
    const keyBlock = Buffer.concat([cipher.update(block), cipher.final()]).toString('base64url');
    return keyBlock + this.encode(project, position);
  }

  /** The key and position a sorted cursor of this project and sort stands for; null when it is not one. */
  decodeSorted(
    project: string,
    sort: string,
    token: string,
  ): { key: number | null; position: number } | null {
    if (!SORTED_TOKEN.test(token)) return null;
    const position = this.decode(project, token.slice(BLOCK_CHARS));
    const decipher = createDecipheriv('aes-256-ecb', this.key, null).setAutoPadding(false);
    const block = Buffer.concat([
      decipher.update(Buffer.from(token.slice(0, BLOCK_CHARS), 'base64url')),
      decipher.final(),
    ]);
    if (position === null || !block.subarray(8).equals(this.tagOf(`${project}\nsort:${sort}`))) {
      return null;
    }
    const key = block.readBigInt64BE();
    if (key === NO_KEY) return { key: null, position };
    const safe = key <= BigInt(Number.MAX_SAFE_INTEGER) && key >= -BigInt(Number.MAX_SAFE_INTEGER);
    return safe ? { key: Number(key), position } : null;
  }

  private tagOf(scope: string): Buffer {
    let tag = this.tags.get(scope);
    if (!tag) {
      tag = createHmac('sha256', this.key).update(`project:${scope}`).digest().subarray(0, 8);
      this.tags.set(scope, tag);
    }
    return tag;
  }
}
