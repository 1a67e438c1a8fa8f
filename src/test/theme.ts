import { Collapse, createTheme } from '@mantine/core';

/**
 * Mantine without the Collapse's animation, for tests: a Collapse opens on the next animation
 * frame, and a test that looked for its content right after the click raced that frame (and lost
 * it on a busy machine). Without the animation it opens in the click's own render.
 */
export const testTheme = createTheme({
  components: { Collapse: Collapse.extend({ defaultProps: { transitionDuration: 0 } }) },
});
