import { afterEach, describe, expect, it, vi } from 'vitest';

describe('createLogger on a terminal', () => {
  const wasTTY = process.stdout.isTTY;
  afterEach(() => {
    process.stdout.isTTY = wasTTY;
    vi.doUnmock('pino-pretty');
    vi.resetModules();
  });

  it('writes JSON lines when pino-pretty, an optional dependency, is not installed', async () => {
    process.stdout.isTTY = true;
    vi.doMock('pino-pretty', () => {
      throw new Error("Cannot find module 'pino-pretty'");
    });
    const { createLogger } = await import('./logging');
    const logger = await createLogger('info');
    expect(logger.level).toBe('info');
    expect(typeof logger.info).toBe('function');
  });
});
