import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

/**
 * axe-core's own bundle, injected as a string (decision 024): @axe-core/playwright needs Node 22
 * and Playwright's test runner types, and all it would add here is this injection. Evaluated
 * through the DevTools protocol, it is not held back by the app's Content-Security-Policy.
 */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeNode {
  target: unknown[];
  failureSummary?: string;
}

interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  helpUrl: string;
  nodes: AxeNode[];
}

/** The impacts a person cannot work around: the ones a journey must never show. */
const BLOCKING = new Set(['serious', 'critical']);

/**
 * The serious and critical axe-core violations of the page as it is now: axe's default rules
 * (WCAG 2.0–2.2 A and AA and its best practices; not its experimental ones, which it leaves off
 * itself for their false positives).
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const injected = await page.evaluate(() => 'axe' in window);
  if (!injected) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: { run: (context: Document, options: unknown) => Promise<{ violations: AxeViolation[] }> };
    };
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, helpUrl, nodes }) => ({
      id,
      impact,
      help,
      helpUrl,
      nodes: nodes.map(({ target, failureSummary }) => ({ target, failureSummary })),
    }));
  });
  return violations.filter((violation) => BLOCKING.has(violation.impact ?? ''));
}

/** One line per failing element: which rule, where, and what to change. */
export function describeViolations(violations: AxeViolation[]): string[] {
  return violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${violation.impact} ${violation.id} at ${JSON.stringify(node.target)}: ${violation.help} ` +
        `(${(node.failureSummary ?? '').replace(/\s+/g, ' ').trim()}) ${violation.helpUrl}`,
    ),
  );
}

/** Fails with every serious or critical violation of the page, named by `screen`. */
export async function expectNoSeriousViolations(page: Page, screen: string): Promise<void> {
  const found = describeViolations(await seriousViolations(page));
  expect({ screen, violations: found }).toEqual({ screen, violations: [] });
}

/**
 * Until the page has nothing loading or moving: axe reads the colours as painted, and a skeleton
 * or a toast still fading in would be measured half transparent (and a toast's box still sliding).
 * Moving includes any CSS transition or finite animation still running: Ant Design's buttons and
 * links fade their colours over 0.2 s (on hover, focus, a theme's first paint), and axe measuring a
 * colour halfway failed a CI run's contrast check on a loaded machine. Endless animations (a
 * spinner) never end, so they do not count.
 */
export async function settled(page: Page): Promise<void> {
  try {
    await page.waitForFunction(stillMoving, false);
  } catch (error) {
    // Say what kept it from settling: a bare timeout gave CI nothing to go on.
    const moving = await page.evaluate(stillMoving, true).catch(() => 'unknown: the page could not be asked');
    throw new Error(`The page did not settle: ${String(moving)}\n${String(error)}`);
  }
}

/** In the page: with `describe`, what is still loading or moving ('' when nothing); else whether nothing is. */
function stillMoving(describe: boolean): boolean | string {
  const name = (element: Element) =>
    `<${element.tagName.toLowerCase()} class="${element.getAttribute('class') ?? ''}"${
      element.getAttribute('aria-label') ? ` aria-label="${element.getAttribute('aria-label')}"` : ''
    }>`;
  const reasons = [
    ...Array.from(document.querySelectorAll('[aria-busy="true"], .ant-skeleton, .boot-shell')).map(
      (element) => `loading ${name(element)}`,
    ),
    ...Array.from(document.querySelectorAll('[class]'))
      .filter((element) => /-(appear|enter|leave)(-active)?\b/.test(element.getAttribute('class') ?? ''))
      .map((element) => `in motion ${name(element)}`),
    ...document
      .getAnimations()
      .filter((animation) => animation.playState === 'running' && animation.effect?.getTiming().iterations !== Infinity)
      .map((animation) => {
        const target = (animation.effect as KeyframeEffect | null)?.target;
        const what = animation instanceof CSSTransition ? `transition ${animation.transitionProperty}` : 'animation';
        return `${what} on ${target ? name(target) : 'nothing'}`;
      }),
  ];
  return describe ? reasons.join('; ') : reasons.length === 0;
}
