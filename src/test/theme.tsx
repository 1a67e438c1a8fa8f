import { Collapse, createTheme, MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * Mantine without the Collapse's animation, for tests: a Collapse opens on the next animation
 * frame, and a test that looked for its content right after the click raced that frame (and lost
 * it on a busy machine). Without the animation it opens in the click's own render.
 */
const testTheme = createTheme({
  components: { Collapse: Collapse.extend({ defaultProps: { transitionDuration: 0 } }) },
});

/**
 * Mantine as the console's tests need it: no transitions at all (a modal fading in reads as not
 * visible to a test that looked on a busy machine before the fade ended) and no portals.
 */
export function TestMantine({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={testTheme} env="test">
      {children}
    </MantineProvider>
  );
}
