import { UnstyledButton } from '@mantine/core';
import classes from './PaletteLauncher.module.css';
import { Suspense, useEffect, useState } from 'react';
import { lazyPage } from '../lib/lazy-page';

// Its search, lists and keyboard handling load on first use: the shell keeps the shortcut alone.
const CommandPalette = lazyPage(() => import('./palette/CommandPalette'));

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** The header's "Go to" button and Ctrl-K / Cmd-K anywhere, opening the command palette. */
export function PaletteLauncher() {
  const [opened, setOpened] = useState(false);
  // Mounted from the first opening on, so that closing it keeps its chunk and its queries.
  const [used, setUsed] = useState(false);
  const open = () => {
    setUsed(true);
    setOpened(true);
  };
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        open();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
  return (
    <>
      {/* Not Mantine's Button: its code (and its Loader's) would join the first page load. */}
      <UnstyledButton
        className={classes.launcher}
        onClick={open}
        aria-keyshortcuts="Control+K Meta+K"
        data-testid="palette-button"
      >
        Go to…{' '}
        <span aria-hidden="true" className={classes.shortcut}>
          &nbsp;{isMac ? '⌘K' : 'Ctrl K'}
        </span>
      </UnstyledButton>
      {used && (
        <Suspense fallback={null}>
          <CommandPalette opened={opened} onClose={() => setOpened(false)} />
        </Suspense>
      )}
    </>
  );
}
