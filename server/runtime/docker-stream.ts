/**
 * Docker multiplexes stdout and stderr of a non-TTY container into frames:
 * [stream, 0, 0, 0, size (uint32 BE)] then `size` bytes. Both streams are kept, in order.
 * (dockerode's demuxStream works on streams; the non-follow logs call returns one Buffer.)
 */
export function demultiplex(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  while (offset + 8 <= raw.length) {
    const size = raw.readUInt32BE(offset + 4);
    parts.push(raw.subarray(offset + 8, offset + 8 + size));
    offset += 8 + size;
  }
  return Buffer.concat(parts);
}
