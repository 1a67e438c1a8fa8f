import type { Readable } from 'node:stream';
import type { ContainerLogTail } from '../../jobs/ports';
import { LogTail } from '../log-tail';

const HEADER_BYTES = 8;
const STDOUT = 1;
const STDERR = 2;

/**
 * Reads an Engine API log stream into its last `maxBytes`, stdout and stderr interleaved as
 * written. The stream is multiplexed (Jobdeck never gives a job a TTY): each frame is an 8-byte
 * header — stream, 0, 0, 0, payload size (u32 BE) — then the payload. Frames of stream 3 are the
 * engine's own words (a swarm manager writes "node … is not available" there when it cannot
 * reach a task's node), not the job's output, so they are left out; dockerode's demuxer would
 * instead pass everything from such a frame on as stdout.
 */
export async function readLogTail(stream: Readable, maxBytes: number): Promise<ContainerLogTail> {
  const sink = new LogTail(maxBytes);
  let partialHeader = Buffer.alloc(0);
  let payloadLeft = 0;
  let isOutput = false;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let data = partialHeader.length > 0 ? Buffer.concat([partialHeader, chunk]) : chunk;
    partialHeader = Buffer.alloc(0);
    while (data.length > 0) {
      if (payloadLeft > 0) {
        const payload = data.subarray(0, payloadLeft);
        if (isOutput) sink.add(payload);
        payloadLeft -= payload.length;
        data = data.subarray(payload.length);
      } else if (data.length < HEADER_BYTES) {
        partialHeader = Buffer.from(data);
        break;
      } else {
        isOutput = data[0] === STDOUT || data[0] === STDERR;
        payloadLeft = data.readUInt32BE(4);
        data = data.subarray(HEADER_BYTES);
      }
    }
  }
  return sink.tail();
}
