import { describe, expect, it } from 'vitest';
import { RELOAD_MARKER, claimReload, isChunkLoadError } from './route-error';

describe('isChunkLoadError', () => {
  it("tells a page's chunk that could not be fetched, in each browser's words", () => {
    for (const message of [
      'Failed to fetch dynamically imported module: http://127.0.0.1:8081/assets/JobsPage-3f2a.js',
      'error loading dynamically imported module: http://127.0.0.1:8081/assets/JobsPage-3f2a.js',
      'Importing a module script failed.',
      'Unable to preload CSS for /assets/JobPage-9c1d.css',
    ])
      expect(isChunkLoadError(new TypeError(message)), message).toBe(true);
  });

  it('leaves a fault of the page itself, and what is not an error, to the other message', () => {
    expect(
      isChunkLoadError(new TypeError("Cannot read properties of undefined (reading 'id')")),
    ).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
  });
});

describe('claimReload', () => {
  it('allows one reload a minute, so a chunk missing from the new build cannot loop', () => {
    expect(claimReload(sessionStorage, 1_000_000)).toBe(true);
    expect(sessionStorage.getItem(RELOAD_MARKER)).toBe('1000000');
    expect(claimReload(sessionStorage, 1_030_000)).toBe(false);
    expect(claimReload(sessionStorage, 1_060_001)).toBe(true);
  });

  it('reloads when the marker is not a time it wrote', () => {
    sessionStorage.setItem(RELOAD_MARKER, 'garbage');
    expect(claimReload(sessionStorage, 5_000)).toBe(true);
  });
});
