// A real Chromium (Debian's `chromium-headless-shell` or `chromium` package) driven by
// playwright-core, for the console's browser tests: one browser per suite, a fresh context (cookies) per person, screenshots of
// each page at phone and desktop widths, and axe-core's accessibility check of each page.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Where the tests write their screenshots (not committed; docs/console.md names it). */
export const SCREENSHOT_DIR = path.resolve('test-output/screenshots');

/** The widths every page is photographed at: a small phone and a laptop. */
export const WIDTHS = { phone: { width: 360, height: 780 }, desktop: { width: 1280, height: 860 } } as const;

/**
 * Debian's two builds of Chromium, the headless shell first: the same Blink and V8 without the
 * browser's window layer, as Playwright's own headless runs use. It spends about 40% less CPU on
 * the same pages (docs/decisions/0042-headless-shell-for-browser-tests.md).
 */
const DEBIAN_CHROMIUMS = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];

/** CHROMIUM_PATH when set, else the first of Debian's builds installed (null: none). */
function chromiumBinary(): string | null {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return DEBIAN_CHROMIUMS.find((file) => existsSync(file)) ?? null;
}

export function launchChromium(): Promise<Browser> {
  const executablePath = chromiumBinary();
  if (!executablePath || !existsSync(executablePath))
    throw new Error(
      `The console's browser tests drive a real Chromium and found none at ${executablePath ?? DEBIAN_CHROMIUMS.join(' or ')}: install Debian's package (apt-get install chromium-headless-shell, or chromium) or set CHROMIUM_PATH to a Chromium binary.`,
    );
  return chromium.launch({
    executablePath,
    // Root in CI has no user namespace for Chromium's sandbox; the background-networking flags keep
    // it from reaching for Google's services on a machine without internet.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/**
 * axe-core's violations of impact serious or critical on the page as it is now (WCAG 2.1 AA).
 * Legacy mode runs axe in the page itself: the default opens a blank page to merge the results
 * of each frame, about 1.2 s a check here against 0.1 s for axe's own run, and our pages have no
 * frames of another origin for that merge to matter.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/**
 * What sticks out past the window's right edge when the page scrolls sideways (a layout bug at
 * 360 px): the innermost such elements, as `tag.class`, or [] when the page fits. Content inside
 * a box that scrolls on its own (a wide table in its wrapper) does not count.
 */
export function sidewaysOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width + 1) return [];
    const clipped = (el: Element) => {
      for (let up = el.parentElement; up; up = up.parentElement)
        if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(up).overflowX)) return true;
      return false;
    };
    const out = [...document.querySelectorAll('body *')]
      .filter((el) => !clipped(el))
      .filter(
        (el) =>
          el.getBoundingClientRect().right > width + 1 &&
          ![...el.children].some((c) => c.getBoundingClientRect().right > width + 1),
      );
    return out
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).replace(/\s+/g, '.')}` : ''}`);
  });
}

/**
 * Boxes drawn with a border (cards, a table's frame) one above the other with less than 8 px
 * between them, as `a.class ↔ b.class`: boxes that touch read as one. [] when none do.
 */
export function touchingBoxes(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const boxes = [...document.querySelectorAll('.card, .table-wrap')].filter((el) => el.getClientRects().length > 0);
    const name = (el: Element) => `${el.tagName.toLowerCase()}.${String(el.className).replace(/\s+/g, '.')}`;
    const out: string[] = [];
    for (const a of boxes)
      for (const b of boxes) {
        if (a === b || a.contains(b) || b.contains(a)) continue;
        const ra = a.getBoundingClientRect();
        const rb = b.getBoundingClientRect();
        const sideBySide = ra.right <= rb.left || rb.right <= ra.left;
        const gap = rb.top - ra.bottom;
        if (!sideBySide && gap >= -1 && gap < 8) out.push(`${name(a)} ↔ ${name(b)}`);
      }
    return out;
  });
}

/**
 * Photographs the page at each width (the whole page) into SCREENSHOT_DIR as `<name>-<width>.png`,
 * checking at each width that nothing scrolls sideways, and returns axe's serious violations at the
 * desktop width.
 */
export async function photograph(page: Page, name: string): Promise<{ violations: string[]; overflow: string[] }> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const overflow: string[] = [];
  for (const [label, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    const sticking = await sidewaysOverflow(page);
    if (sticking.length) overflow.push(`${label}: ${sticking.join(', ')}`);
    const touching = await touchingBoxes(page);
    if (touching.length) overflow.push(`${label}: touching ${touching.join(', ')}`);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${label}.png`), fullPage: true });
  }
  return { violations: await seriousViolations(page), overflow };
}
