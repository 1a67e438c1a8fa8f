import { createCipheriv, createDecipheriv, createHmac } from 'node:crypto';
import { POSITION_TOKEN } from '../../contract';

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

  private tagOf(project: string): Buffer {
    let tag = this.tags.get(project);
    if (!tag) {
      tag = createHmac('sha256', this.key).update(`project:${project}`).digest().subarray(0, 8);
      this.tags.set(project, tag);
    }
    return tag;
  }
}
