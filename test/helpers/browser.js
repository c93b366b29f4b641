// Headless Chromium from Debian, driven by playwright-core (no browser download): shared by the site
// tests and `npm run bench:site`.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Whether a browser test must skip: false when Chromium is there; otherwise the reason, except under
 * CI=true, where a missing browser fails the suite (.ci/run installs it), as a missing engine does.
 * @returns {false | string}
 */
export function browserOrSkip() {
  if (existsSync(CHROMIUM)) return false;
  const why = `no Chromium at ${CHROMIUM}: \`apt-get install chromium\` (.ci/install-test-tools.sh installs it)`;
  if (process.env.CI) throw new Error(`CI=true but ${why}`);
  return why;
}
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A browser with a fresh profile; `close()` removes the profile too. */
export async function launch() {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'dind-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ARGS,
    headless: true,
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Opens `url` in a new page and collects console errors and failed requests.
 * @param {import('playwright-core').BrowserContext} context @param {string} url
 */
export async function openPage(
  context,
  url,
  { colorScheme = /** @type {'light'|'dark'} */ ('light'), width = 1280 } = {},
) {
  const page = await context.newPage();
  await page.setViewportSize({ width, height: 900 });
  await page.emulateMedia({ colorScheme });
  /** @type {string[]} */
  const errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
  // Chromium abandons a navigation when the machine's network interfaces change (ERR_NETWORK_CHANGED),
  // as they do whenever an engine on the same machine adds or removes a bridge or a container's veth:
  // that navigation is tried again, and what it recorded is dropped. Any other failure is the test's.
  for (let attempt = 1; ; attempt++) {
    try {
      await page.goto(url);
      break;
    } catch (e) {
      if (attempt >= 3 || !/ERR_NETWORK_CHANGED/.test(String(e))) throw e;
      errors.length = 0;
    }
  }
  try {
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  } catch (e) {
    // A page that never got ready says why, if it said anything (an error, a failed request): a timeout
    // alone cannot tell a script that threw from a machine too loaded to draw the page in time.
    throw new Error(
      `${url} was not ready within 30 s (${errors.length ? errors.join('; ') : 'no error on the page'})`,
      {
        cause: e,
      },
    );
  }
  return { page, errors };
}
