import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The rules whose verdict a colour scheme can change: the rest judge what both themes share. */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * Serious and critical violations of WCAG 2.1 A/AA and best practice, as rule: targets; `rules`:
 * only those rules.
 */
export async function seriousViolations(
  page: Page,
  include?: string,
  rules?: string[],
): Promise<string[]> {
  // Only the violations are reported node by node (axe's own option for speed: listing every
  // passing node was most of an audit's time). Set first: `options` replaces the options whole,
  // the rules chosen below with them.
  let builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
  builder = rules
    ? builder.withRules(rules)
    : builder.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']);
  if (include) {
    builder = builder.include(include);
    // A dialog or notification fades in by a transition that starts a frame after it mounts:
    // before that frame there is no animation to wait for below, only its text at opacity 0,
    // which axe judges as a colour (the bulk-cancel dialog failed so under load).
    await page.waitForFunction(
      (selector) =>
        [...document.querySelectorAll(selector)].every(
          (element) => getComputedStyle(element).opacity === '1',
        ),
      include,
      { timeout: 10_000 },
    );
  } else {
    // A notification closes by itself after 4 s, fading out: if that starts during a whole-page
    // audit, axe judges its half-faded text as a colour (the queue controls' audit failed so in
    // CI). A whole page is audited once none is left; a notification is audited by its selector.
    await page.waitForFunction(() => !document.querySelector('.mantine-Notification-root'), null, {
      timeout: 15_000,
    });
  }
  // The page as it settles: a notification or dialog still fading in has its text at part
  // opacity, which axe would judge as a colour. Spinners loop for ever and are not waited for.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * Axe in both themes, light then dark (only the colour rules there: the rest judge what both
 * share): no serious or critical violation, on the page or within `include`. Light again after.
 */
export async function auditBothThemes(page: Page, name: string, include?: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
    const rules = colorScheme === 'dark' ? COLOUR_RULES : undefined;
    expect(await seriousViolations(page, include, rules), `${name} (${colorScheme})`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
